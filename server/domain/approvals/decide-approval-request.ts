import { hasScope } from "../../auth/api-keys.ts";
import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type ApprovalDto, approvalStatusOf, toApprovalDto } from "./approval-dto.ts";
import { findApprovalRequest } from "./find-approval-request.ts";

export interface DecideApprovalRequestOptions {
  auth: AuthContext;
  approvalRequestId: string;
  decision: "approved" | "rejected";
  reason?: string;
  expectedVersion?: number;
}

/**
 * The four-eyes decision shared by approve and reject: same organization and environment (else 404), the approval's
 * scope (403), another actor than the requester (403), still `pending` and not expired (409), `expectedVersion` (409);
 * then a compare-and-set on (id, version, pending, not expired), so of concurrent decisions exactly one wins.
 */
export async function decideApprovalRequest(uow: UnitOfWork, options: DecideApprovalRequestOptions): Promise<ApprovalDto> {
  const { auth, approvalRequestId, decision, reason, expectedVersion } = options;
  const verb = decision === "approved" ? "approve" : "reject";
  const row = await findApprovalRequest(uow.tx, auth, approvalRequestId);
  if (!hasScope(auth.scopes, row.scope)) {
    throw new ServiceError("FORBIDDEN", `This API key lacks the scope ${row.scope} required to ${verb} this approval request`);
  }
  if (row.requestedByActor === auth.actor) {
    throw new ServiceError(
      "FORBIDDEN",
      `Four-eyes rule: the requester (actor ${auth.actor}) cannot ${verb} their own approval request; another actor of the organization must`,
    );
  }
  const now = uow.now;
  const status = approvalStatusOf(row, now);
  if (status !== "pending") {
    throw new ServiceError("STATE_CONFLICT", `The approval request is ${status}; only a pending approval request can be decided`);
  }
  if (expectedVersion !== undefined && expectedVersion !== row.version) {
    throw new ServiceError("STATE_CONFLICT", `expectedVersion ${expectedVersion} does not match the current version ${row.version}`);
  }
  const updated = await uow.tx
    .updateTable("ApprovalRequest")
    .set({
      status: decision,
      decidedByActor: auth.actor,
      decidedByKeyId: auth.apiKeyId,
      decisionReason: reason ?? null,
      decidedAt: now,
      version: row.version + 1,
      updatedAt: now,
    })
    .where("id", "=", row.id)
    .where("version", "=", row.version)
    .where("status", "=", "pending")
    .where("expiresAt", ">", now)
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    throw new ServiceError("STATE_CONFLICT", "The approval request changed concurrently (another decision won); read it again");
  }
  recordActivity(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: `approval.${decision}`,
    resourceId: row.id,
  });
  return toApprovalDto(updated, now);
}
