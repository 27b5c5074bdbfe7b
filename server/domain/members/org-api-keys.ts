// The organization's own API keys, managed by its members: created with a session (the member is the key's creator and
// actor), listed with their last use, revoked. The secret is answered once; only its hash is stored.

import type { AuthContext, Environment } from "../../context.ts";
import type { Queryable, Tx } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedByOrganization } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { generateApiKey, hasScope } from "../access/api-keys.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { recordSpendingLimits, spendingLimitsJson, toSpendingLimitDtos } from "../spending-limits/key-spending-limits.ts";
import { checkSpendingLimits, type SpendingLimit } from "../spending-limits/spending-limit-rules.ts";
import { recordAudit } from "./audit-log.ts";
import { sessionOf } from "./member-access.ts";

type KeyDto = components["schemas"]["OrgApiKey"];

interface KeyRow {
  id: string;
  prefix: string;
  environment: string;
  scopes: string[];
  label: string | null;
  createdByMemberId: string | null;
  actor: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  spendingLimits: Parameters<typeof toSpendingLimitDtos>[0];
}

const toDto = (k: KeyRow): KeyDto => ({
  id: k.id,
  prefix: k.prefix,
  environment: k.environment as Environment,
  scopes: k.scopes as KeyDto["scopes"],
  label: k.label,
  createdBy: k.createdByMemberId,
  actor: k.actor,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
  spendingLimits: toSpendingLimitDtos(k.spendingLimits),
});

const keys = (db: Queryable | Tx, organizationId: string) =>
  db
    .selectFrom("ApiKey as k")
    .leftJoin("ApiKeyUsage as u", "u.apiKeyId", "k.id")
    .select([
      "k.id",
      "k.prefix",
      "k.environment",
      "k.scopes",
      "k.label",
      "k.createdByMemberId",
      "k.actor",
      "k.createdAt",
      "k.revokedAt",
      "u.lastUsedAt",
      (eb) => spendingLimitsJson(eb.ref("k.id")).as("spendingLimits"),
    ])
    // A member sees the organization's keys of both environments.
    .where(ownedByOrganization(organizationId, "k"));

export async function createOrgApiKey(
  uow: UnitOfWork,
  { auth, input, clientAddress }: { auth: AuthContext; input: components["schemas"]["CreateOrgApiKeyRequest"]; clientAddress: string },
): Promise<components["schemas"]["CreatedOrgApiKey"]> {
  const session = sessionOf(auth);
  // A member grants no more than their role holds.
  const beyond = input.scopes.filter((scope) => !hasScope(auth.scopes, scope));
  if (beyond.length > 0) throw new ServiceError("FORBIDDEN", `The ${session.role} role cannot grant ${beyond.join(", ")}`);
  const id = newId("key");
  const { key, prefix, hash } = generateApiKey(input.environment);
  const scopes = [...new Set(input.scopes)];
  const spendingLimits: SpendingLimit[] = checkSpendingLimits(input.spendingLimits);
  uow.insertLater("ApiKey", {
    id,
    organizationId: auth.organizationId,
    environment: input.environment,
    prefix,
    hash,
    scopes,
    actor: session.email,
    label: input.label,
    createdByMemberId: session.memberId,
    createdAt: uow.now,
    spendingLimited: spendingLimits.length > 0,
  });
  recordSpendingLimits(uow, id, spendingLimits);
  recordAudit(uow, {
    organizationId: auth.organizationId,
    action: "api_key.created",
    actorMemberId: session.memberId,
    actorEmail: session.email,
    clientAddress,
    target: id,
    details: { environment: input.environment, scopes, label: input.label, ...(spendingLimits.length > 0 ? { spendingLimits } : {}) },
  });
  const dto = toDto({
    id,
    prefix,
    environment: input.environment,
    scopes,
    label: input.label,
    createdByMemberId: session.memberId,
    actor: session.email,
    createdAt: uow.now,
    lastUsedAt: null,
    revokedAt: null,
    spendingLimits,
  });
  return { secret: key, ...dto };
}

export async function listOrgApiKeys(
  db: Queryable,
  { organizationId, window }: { organizationId: string; window: PageWindow },
): Promise<components["schemas"]["OrgApiKeyList"]> {
  const page = await newestFirstPage(keys(db, organizationId), { ...window, table: "k", unknownCursor: unknownCursor("an API key") });
  return { data: page.rows.map(toDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}

export async function getOrgApiKey(db: Queryable, { organizationId, keyId }: { organizationId: string; keyId: string }): Promise<KeyDto> {
  const row = await keys(db, organizationId).where("k.id", "=", keyId).executeTakeFirst();
  if (!row) throw notFound("API key");
  return toDto(row);
}

/** Revokes in one transaction with its audit entry; the caller answers after the change feed's barrier, so the key
 * fails on every instance from the answer on. */
export async function revokeOrgApiKey(
  db: Queryable,
  { auth, keyId, clientAddress }: { auth: AuthContext; keyId: string; clientAddress: string },
): Promise<KeyDto> {
  const session = sessionOf(auth);
  return db.transaction().execute(async (tx) => {
    const now = new Date();
    const revoked = await tx
      .updateTable("ApiKey")
      .set({ revokedAt: now })
      .where("id", "=", keyId)
      .where(ownedByOrganization(auth.organizationId))
      .where("revokedAt", "is", null)
      .returning("id")
      .executeTakeFirst();
    const row = await keys(tx, auth.organizationId).where("k.id", "=", keyId).executeTakeFirst();
    if (!row) throw notFound("API key");
    if (!revoked) throw new ServiceError("STATE_CONFLICT", "This API key is already revoked");
    await tx
      .insertInto("AuditEntry")
      .values({
        id: newId("aud"),
        organizationId: auth.organizationId,
        action: "api_key.revoked",
        actorMemberId: session.memberId,
        actorEmail: session.email,
        clientAddress,
        target: keyId,
        details: JSON.stringify({ environment: row.environment, label: row.label }),
        createdAt: now,
      })
      .execute();
    return toDto(row);
  });
}
