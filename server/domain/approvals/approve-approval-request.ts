import type { AuthContext } from "../../context.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import type { ApprovalDto } from "./approval-dto.ts";
import { decideApprovalRequest } from "./decide-approval-request.ts";

export interface ApproveApprovalRequestOptions {
  auth: AuthContext;
  approvalRequestId: string;
  reason?: string;
  expectedVersion?: number;
}

/** pending → approved, by another actor of the organization holding the approval's scope. */
export async function approveApprovalRequest(tx: Tx, options: ApproveApprovalRequestOptions): Promise<ApprovalDto> {
  return decideApprovalRequest(tx, { ...options, decision: "approved" });
}
