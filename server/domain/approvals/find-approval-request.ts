import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { notFound } from "../../errors/service-error.ts";
import type { ApprovalRow } from "./approval-dto.ts";

/** Loads an approval request of the key's organization and environment; any other one is indistinguishable from a missing one. */
export async function findApprovalRequest(db: Queryable, auth: AuthContext, approvalRequestId: string): Promise<ApprovalRow> {
  const row = await db
    .selectFrom("ApprovalRequest")
    .selectAll()
    .where("id", "=", approvalRequestId)
    .where("organizationId", "=", auth.organizationId)
    .where("environment", "=", auth.environment)
    .executeTakeFirst();
  if (!row) throw notFound("Approval request");
  return row;
}
