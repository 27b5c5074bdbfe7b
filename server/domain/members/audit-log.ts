// The audit log of what people did (issue 24): appended in the unit of work of the change it records, so an entry
// exists exactly when the change does; never updated, never deleted, and never given a secret (callers pass ids, roles,
// labels and scopes — the details' keys are checked here so a password or secret cannot slip in by name).
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedByOrganization } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { unknownCursor } from "../lists/page-window.ts";

export type AuditAction = components["schemas"]["AuditAction"];

export interface AuditInput {
  organizationId: string;
  action: AuditAction;
  actorMemberId: string | null;
  actorEmail: string | null;
  clientAddress: string | null;
  target: string | null;
  details?: Record<string, unknown>;
}

const SECRET_NAMES = /password|secret|hash|token|code|key$/i;

function row(input: AuditInput, now: Date) {
  const details = input.details ?? {};
  for (const name of Object.keys(details)) {
    if (SECRET_NAMES.test(name)) throw new Error(`audit details may not hold "${name}"`);
  }
  return { id: newId("aud"), ...input, details: JSON.stringify(details), createdAt: now };
}

/** Appends an entry at the commit of the unit of work (in its closing statement). */
export function recordAudit(uow: UnitOfWork, input: AuditInput, options: { keepOnError?: boolean } = {}): void {
  uow.insertLater("AuditEntry", row(input, uow.now), options);
}

/** Appends an entry now, outside any unit of work (a failed sign-in, which changes nothing else). */
export async function recordAuditNow(db: Queryable, input: AuditInput, now = new Date()): Promise<void> {
  await db.insertInto("AuditEntry").values(row(input, now)).execute();
}

export async function listAuditLog(
  db: Queryable,
  { organizationId, window }: { organizationId: string; window: PageWindow },
): Promise<components["schemas"]["AuditEntryList"]> {
  const scoped = db.selectFrom("AuditEntry").selectAll().where(ownedByOrganization(organizationId));
  const page = await newestFirstPage(scoped, { ...window, unknownCursor: unknownCursor("an audit log entry") });
  return {
    data: page.rows.map((r) => ({
      id: r.id,
      action: r.action as AuditAction,
      actorMemberId: r.actorMemberId,
      actorEmail: r.actorEmail,
      clientAddress: r.clientAddress,
      target: r.target,
      details: (typeof r.details === "string" ? JSON.parse(r.details) : r.details) as Record<string, unknown>,
      createdAt: r.createdAt.toISOString(),
    })),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
  };
}

/** A webhook endpoint created, updated, deleted or given a new secret, by whoever the request's credential stands for
 * (a session's member, or the member who created the API key). */
export function auditWebhookEndpointChange(
  uow: UnitOfWork,
  {
    auth,
    endpointId,
    change,
    clientAddress,
  }: {
    auth: { organizationId: string; environment: string; memberId?: string | null; session?: { email: string } };
    endpointId: string;
    change: "created" | "updated" | "deleted" | "secret_rotated";
    clientAddress: string;
  },
): void {
  recordAudit(uow, {
    organizationId: auth.organizationId,
    action: "webhook_endpoint.changed",
    actorMemberId: auth.memberId ?? null,
    actorEmail: auth.session?.email ?? null,
    clientAddress,
    target: endpointId,
    details: { change, environment: auth.environment },
  });
}
