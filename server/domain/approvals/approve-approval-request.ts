import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { ApprovalDto } from "./approval-dto.ts";
import { decideApprovalRequest } from "./decide-approval-request.ts";

export interface ApproveApprovalRequestOptions {
  auth: AuthContext;
  approvalRequestId: string;
  reason?: string;
  expectedVersion?: number;
  clientAddress?: string;
}

/** pending → approved, by another actor of the organization holding the approval's scope. */
export async function approveApprovalRequest(uow: UnitOfWork, options: ApproveApprovalRequestOptions): Promise<ApprovalDto> {
  return decideApprovalRequest(uow, { ...options, decision: "approved" });
}
