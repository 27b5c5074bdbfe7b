import type { Environment } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ApiKey } from "../../generated/prisma/client.ts";
import { newId } from "../../lib/ids.ts";
import { generateApiKey } from "../access/api-keys.ts";
import { toSpendingLimitDtos } from "../spending-limits/key-spending-limits.ts";
import { checkSpendingLimits, type SpendingLimit } from "../spending-limits/spending-limit-rules.ts";
import { ensureOrganization } from "./ensure-organization.ts";

type ApiKeyDto = components["schemas"]["ApiKey"];
type CreateApiKeyInput = components["schemas"]["CreateApiKeyRequest"];

type StoredLimits = { apiKeyId: string; asset: string; perCall: { toFixed(): string } | null; per24h: { toFixed(): string } | null }[];

/** The stored limits of `keyId` as answered (Prisma reads numeric columns as Decimal). */
const limitsOf = (keyId: string, limits: StoredLimits): SpendingLimit[] =>
  toSpendingLimitDtos(
    limits
      .filter((l) => l.apiKeyId === keyId)
      .sort((a, b) => (a.asset < b.asset ? -1 : 1))
      .map((l) => ({ asset: l.asset, perCall: l.perCall?.toFixed() ?? null, per24h: l.per24h?.toFixed() ?? null })),
  );

const toDto = (k: ApiKey, spendingLimits: SpendingLimit[]): ApiKeyDto => ({
  id: k.id,
  prefix: k.prefix,
  organizationId: k.organizationId,
  environment: k.environment as Environment,
  scopes: k.scopes as ApiKeyDto["scopes"],
  actor: k.actor,
  label: k.label,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
  spendingLimits,
});

/** Creates the organization on first use (race-free: see ensureOrganization), then the key; the secret is returned once
 * and only its hash is kept. */
export async function createApiKey(db: Db, input: CreateApiKeyInput): Promise<components["schemas"]["CreatedApiKey"]> {
  const id = newId("key");
  const { key, prefix, hash } = generateApiKey(input.environment);
  const spendingLimits = checkSpendingLimits(input.spendingLimits);
  const [, record] = await db.$transaction([
    ensureOrganization(db, input.organizationId),
    db.apiKey.create({
      data: {
        id,
        organizationId: input.organizationId,
        environment: input.environment,
        prefix,
        hash,
        scopes: [...new Set(input.scopes)],
        actor: input.actor ?? id,
        label: input.label ?? null,
        spendingLimited: spendingLimits.length > 0,
      },
    }),
    db.apiKeySpendingLimit.createMany({ data: spendingLimits.map((l) => ({ apiKeyId: id, ...l })) }),
  ]);
  return { ...toDto(record, spendingLimits), key };
}

export async function listApiKeys(db: Db, { organizationId }: { organizationId: string }): Promise<components["schemas"]["ApiKeyList"]> {
  const keys = await db.apiKey.findMany({ where: { organizationId }, orderBy: { createdAt: "desc" } });
  const limits = await db.apiKeySpendingLimit.findMany({
    where: { apiKeyId: { in: keys.filter((k) => k.spendingLimited).map((k) => k.id) } },
  });
  return { count: keys.length, data: keys.map((k) => toDto(k, limitsOf(k.id, limits))) };
}

export async function revokeApiKey(db: Db, { id }: { id: string }): Promise<ApiKeyDto> {
  const existing = await db.apiKey.findUnique({ where: { id } });
  if (!existing) throw notFound("API key");
  const limits = existing.spendingLimited ? limitsOf(id, await db.apiKeySpendingLimit.findMany({ where: { apiKeyId: id } })) : [];
  if (existing.revokedAt) return toDto(existing, limits);
  return toDto(await db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } }), limits);
}
