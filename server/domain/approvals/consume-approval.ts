import { hasScope } from "../../auth/api-keys.ts";
import type { AuthContext } from "../../context.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type ApprovalDto, approvalStatusOf, toApprovalDto } from "./approval-dto.ts";
import { canonicalApprovalPayload } from "./approval-payload.ts";
import { findApprovalRequest } from "./find-approval-request.ts";

export interface ConsumeApprovalOptions {
  /** The key running the guarded operation; it must hold the approval's scope. */
  auth: AuthContext;
  approvalRequestId: string;
  /** The operation about to run; must equal the approved `action`. */
  action: string;
  /** The payload about to run; its canonical JSON must hash to the approved `payloadHash`. */
  payload: unknown;
}

const forbidden = (message: string) => new ServiceError("FORBIDDEN", message);

/**
 * Uses an approved approval request exactly once, inside the caller's transaction (roll it back and the approval stays
 * unused). 404 when it is not the key's organization's and environment's; 403 when it is not approved (pending,
 * rejected, expired), already used, or was approved for another action or payload; 409 STATE_CONFLICT when a
 * concurrent consumer won the compare-and-set.
 */
export async function consumeApproval(tx: Tx, options: ConsumeApprovalOptions): Promise<ApprovalDto> {
  const { auth, approvalRequestId, action, payload } = options;
  const row = await findApprovalRequest(tx, auth, approvalRequestId);
  if (!hasScope(auth.scopes, row.scope)) {
    throw forbidden(`This API key lacks the scope ${row.scope} required to use approval request ${row.id}`);
  }
  if (row.consumedAt !== null) throw forbidden(`Approval request ${row.id} was already used; an approval is single-use`);
  const now = new Date();
  const status = approvalStatusOf(row, now);
  if (status === "pending") throw forbidden(`Approval request ${row.id} is still pending; another actor must approve it first`);
  if (status === "rejected") throw forbidden(`Approval request ${row.id} was rejected`);
  if (status === "expired") throw forbidden(`Approval request ${row.id} expired at ${row.expiresAt.toISOString()}`);
  if (row.action !== action) throw forbidden(`Approval request ${row.id} was approved for another operation (${row.action})`);
  if (canonicalApprovalPayload(payload).hash !== row.payloadHash) {
    throw forbidden(`Approval request ${row.id} was approved for another payload; the request must match the approved one exactly`);
  }
  const { count } = await tx.approvalRequest.updateMany({
    where: { id: row.id, version: row.version, status: "approved", consumedAt: null, expiresAt: { gt: now } },
    data: { consumedAt: now, version: { increment: 1 }, updatedAt: now },
  });
  if (count === 0) throw new ServiceError("STATE_CONFLICT", `Approval request ${row.id} changed concurrently (another use won)`);
  await recordActivity(tx, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: "approval.consumed",
    resourceId: row.id,
  });
  const updated = await tx.approvalRequest.findUniqueOrThrow({ where: { id: row.id } });
  return toApprovalDto(updated, now);
}
