// The approval request as the API shows it, and the rules that derive its visible state from the stored row.
import type { Expression, ExpressionBuilder, Selectable, SqlBool } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";

export type ApprovalDto = components["schemas"]["ApprovalRequest"];
/** The stored row, as Kysely reads it (timestamps as Date, payload parsed). */
export type ApprovalRow = Selectable<DB["ApprovalRequest"]>;
export type ApprovalStatus = components["schemas"]["ApprovalStatus"];
export type ApprovalKind = "provider_operation" | "custody_wallet" | "custody_transfer" | "issuance";
export const APPROVAL_KINDS: readonly ApprovalKind[] = ["provider_operation", "custody_wallet", "custody_transfer", "issuance"];

/** Default time to live of an approval request: the deadline for its decision and for its use (documented in the spec). */
export const APPROVAL_TTL_HOURS = 72;

/**
 * Stored status is `pending`, `approved` or `rejected`; `expired` is derived: a request past `expiresAt` that is still
 * undecided, or approved but not yet used, reads `expired`. A used (consumed) approval stays `approved`.
 */
export function approvalStatusOf(
  row: { status: string; expiresAt: Date; consumedAt: Date | null },
  now: Date = new Date(),
): ApprovalStatus {
  const stored = row.status as ApprovalStatus;
  const usable = stored === "pending" || (stored === "approved" && row.consumedAt === null);
  return usable && row.expiresAt.getTime() <= now.getTime() ? "expired" : stored;
}

/** `approvalStatusOf` as a SQL predicate, so a list filtered by status returns exactly the requests a read at `now`
 * shows in that status (expired ones included, which no stored column says). Keep the two in step. */
export function approvalStatusIs(status: ApprovalStatus, now: Date): (eb: ExpressionBuilder<DB, "ApprovalRequest">) => Expression<SqlBool> {
  return (eb) => {
    const live = eb("expiresAt", ">", now);
    const unused = eb("consumedAt", "is", null);
    switch (status) {
      case "pending":
        return eb.and([eb("status", "=", "pending"), live]);
      case "approved":
        return eb.and([eb("status", "=", "approved"), eb.or([eb.not(unused), live])]);
      case "rejected":
        return eb("status", "=", "rejected");
      case "expired":
        return eb.and([eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "approved"), unused])]), eb("expiresAt", "<=", now)]);
    }
  };
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function toApprovalDto(row: ApprovalRow, now: Date = new Date()): ApprovalDto {
  return {
    approvalRequestId: row.id,
    kind: row.kind as ApprovalKind,
    action: row.action,
    status: approvalStatusOf(row, now),
    consumed: row.consumedAt !== null,
    consumedAt: iso(row.consumedAt),
    payload: row.payload,
    payloadHash: row.payloadHash,
    scope: row.scope,
    resourceId: row.resourceId,
    requestedBy: { actor: row.requestedByActor, apiKeyId: row.requestedByKeyId, memberId: row.requestedByMemberId },
    decidedBy:
      row.decidedByActor !== null && row.decidedByKeyId !== null
        ? { actor: row.decidedByActor, apiKeyId: row.decidedByKeyId, memberId: row.decidedByMemberId }
        : null,
    decisionReason: row.decisionReason,
    decidedAt: iso(row.decidedAt),
    expiresAt: row.expiresAt.toISOString(),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
