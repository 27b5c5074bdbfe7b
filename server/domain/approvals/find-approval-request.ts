import type { AuthContext } from "../../context.ts";
import { notFound } from "../../errors/service-error.ts";
import type { ApprovalRequest } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";

/** Loads an approval request of the key's organization and environment; any other one is indistinguishable from a missing one. */
export async function findApprovalRequest(db: Tx, auth: AuthContext, approvalRequestId: string): Promise<ApprovalRequest> {
  const row = await db.approvalRequest.findFirst({
    where: { id: approvalRequestId, organizationId: auth.organizationId, environment: auth.environment },
  });
  if (!row) throw notFound("Approval request");
  return row;
}
