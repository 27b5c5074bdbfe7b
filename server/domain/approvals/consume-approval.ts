import type { AuthContext } from "../../context.ts";
import { compareAndSet } from "../../db/compare-and-set.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type ApprovalDto, toApprovalDto } from "./approval-dto.ts";
import { useRefusal } from "./approval-rules.ts";
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

/**
 * Uses an approved approval request exactly once, inside the caller's unit of work (roll it back and the approval stays
 * unused). 404 when it is not the key's organization's and environment's; 403 when it is not approved (pending,
 * rejected, expired), already used, or was approved for another action or payload; 409 STATE_CONFLICT when a
 * concurrent consumer won the compare-and-set.
 */
export async function consumeApproval(uow: UnitOfWork, options: ConsumeApprovalOptions): Promise<ApprovalDto> {
  const { auth, approvalRequestId, action, payload } = options;
  const row = await findApprovalRequest(uow.tx, auth, approvalRequestId);
  const now = uow.now;
  const refusal = useRefusal(row, auth, action, payload, now);
  if (refusal) throw refusal;
  const updated = await compareAndSet(uow.tx, "ApprovalRequest", row, { consumedAt: now, updatedAt: now }, (eb) =>
    eb.and([eb("status", "=", "approved"), eb("consumedAt", "is", null), eb("expiresAt", ">", now)]),
  );
  if (!updated) throw new ServiceError("STATE_CONFLICT", `Approval request ${row.id} changed concurrently (another use won)`);
  recordActivity(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: "approval.consumed",
    resourceId: row.id,
  });
  return toApprovalDto(updated, now);
}

/**
 * Undoes a use whose guarded operation then failed at the provider (two-transaction operations consume the approval
 * before the provider call): the approval is unused again, so the operation can be retried with it. A compare-and-set
 * on the version the use left; the version still advances (a released approval is a new state, never an old one).
 */
export async function releaseApproval(uow: UnitOfWork, consumed: ApprovalDto): Promise<void> {
  const released = await uow.tx
    .updateTable("ApprovalRequest")
    .set({ consumedAt: null, version: consumed.version + 1, updatedAt: uow.now })
    .where("id", "=", consumed.approvalRequestId)
    .where("version", "=", consumed.version)
    .where("consumedAt", "is not", null)
    .returning(["organizationId", "environment"])
    .executeTakeFirst();
  if (!released) return; // changed since: nothing of ours to undo
  recordActivity(uow, {
    organizationId: released.organizationId,
    environment: released.environment,
    type: "approval.released",
    resourceId: consumed.approvalRequestId,
  });
}
