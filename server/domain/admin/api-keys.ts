import type { Environment } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ApiKey } from "../../generated/prisma/client.ts";
import { newId } from "../../lib/ids.ts";
import { generateApiKey } from "../access/api-keys.ts";
import { ensureOrganization } from "./ensure-organization.ts";

type ApiKeyDto = components["schemas"]["ApiKey"];
type CreateApiKeyInput = components["schemas"]["CreateApiKeyRequest"];

const toDto = (k: ApiKey): ApiKeyDto => ({
  id: k.id,
  prefix: k.prefix,
  organizationId: k.organizationId,
  environment: k.environment as Environment,
  scopes: k.scopes as ApiKeyDto["scopes"],
  actor: k.actor,
  label: k.label,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** Creates the organization on first use (race-free: see ensureOrganization), then the key; the secret is returned once
 * and only its hash is kept. */
export async function createApiKey(db: Db, input: CreateApiKeyInput): Promise<components["schemas"]["CreatedApiKey"]> {
  const id = newId("key");
  const { key, prefix, hash } = generateApiKey(input.environment);
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
      },
    }),
  ]);
  return { ...toDto(record), key };
}

export async function listApiKeys(db: Db, { organizationId }: { organizationId: string }): Promise<components["schemas"]["ApiKeyList"]> {
  const keys = await db.apiKey.findMany({ where: { organizationId }, orderBy: { createdAt: "desc" } });
  return { count: keys.length, data: keys.map(toDto) };
}

export async function revokeApiKey(db: Db, { id }: { id: string }): Promise<ApiKeyDto> {
  const existing = await db.apiKey.findUnique({ where: { id } });
  if (!existing) throw notFound("API key");
  if (existing.revokedAt) return toDto(existing);
  return toDto(await db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } }));
}
