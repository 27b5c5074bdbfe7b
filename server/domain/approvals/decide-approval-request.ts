import type { AuthContext } from "../../context.ts";
import { compareAndSet } from "../../db/compare-and-set.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { recordAudit } from "../members/audit-log.ts";
import { emitIssuanceEvent, issuanceRequestsOf } from "../treasury/issuance-request-events.ts";
import { type ApprovalDto, toApprovalDto } from "./approval-dto.ts";
import { emitApprovalEvent } from "./approval-events.ts";
import { deciderRefusal, decisionRefusal } from "./approval-rules.ts";
import { findApprovalRequest } from "./find-approval-request.ts";

export interface DecideApprovalRequestOptions {
  auth: AuthContext;
  approvalRequestId: string;
  decision: "approved" | "rejected";
  reason?: string;
  expectedVersion?: number;
  /** For the audit log. */
  clientAddress?: string;
}

/**
 * The four-eyes decision shared by approve and reject: same organization and environment (else 404), the approval's
 * scope (403), another actor than the requester (403), still `pending` and not expired (409), `expectedVersion` (409);
 * then a compare-and-set on (id, version, pending, not expired), so of concurrent decisions exactly one wins.
 */
export async function decideApprovalRequest(uow: UnitOfWork, options: DecideApprovalRequestOptions): Promise<ApprovalDto> {
  const { auth, approvalRequestId, decision, reason, expectedVersion } = options;
  const notAllowed = deciderRefusal(auth, decision);
  if (notAllowed) throw notAllowed;
  const row = await findApprovalRequest(uow.tx, auth, approvalRequestId);
  const now = uow.now;
  const refusal = decisionRefusal(row, auth, decision, now, expectedVersion);
  if (refusal) throw refusal;
  const updated = await compareAndSet(
    uow.tx,
    "ApprovalRequest",
    row,
    {
      status: decision,
      decidedByActor: auth.actor,
      decidedByKeyId: auth.apiKeyId,
      decidedByMemberId: auth.memberId ?? null,
      decisionReason: reason ?? null,
      decidedAt: now,
      updatedAt: now,
    },
    // The expiry sweeper already announced it expired (approval_request.expired): a decision whose clock was read just
    // before expiresAt must not follow that event with an approval.
    (eb) => eb.and([eb("status", "=", "pending"), eb("expiresAt", ">", now), eb("expirySweptAt", "is", null)]),
  );
  if (!updated) {
    throw new ServiceError("STATE_CONFLICT", "The approval request changed concurrently (another decision won); read it again");
  }
  recordActivity(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: `approval.${decision}`,
    resourceId: row.id,
  });
  recordAudit(uow, {
    organizationId: row.organizationId,
    action: "approval_request.decided",
    actorMemberId: auth.memberId ?? null,
    actorEmail: auth.session?.email ?? null,
    clientAddress: options.clientAddress ?? null,
    target: row.id,
    details: { decision, environment: row.environment, note: reason ?? null },
  });
  emitApprovalEvent(uow, updated, decision === "approved" ? "approval_request.approved" : "approval_request.rejected");
  // An issuance request's status is its approval's decision: it changes with it (one read, of that request only).
  if (row.kind === "issuance") {
    for (const issuance of await issuanceRequestsOf(uow.tx, row, [row.id], now)) emitIssuanceEvent(uow, issuance, row);
  }
  return toApprovalDto(updated, now);
}
