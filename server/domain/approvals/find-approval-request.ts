import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { findOwned } from "../../db/owned-by.ts";
import type { ApprovalRow } from "./approval-dto.ts";

/** Loads an approval request of the key's organization and environment; any other one is indistinguishable from a missing one. */
export async function findApprovalRequest(db: Queryable, auth: AuthContext, approvalRequestId: string): Promise<ApprovalRow> {
  return findOwned(db, "ApprovalRequest", approvalRequestId, auth, "Approval request");
}
