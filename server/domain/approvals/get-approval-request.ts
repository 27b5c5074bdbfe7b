import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { hasScope } from "../access/api-keys.ts";
import { type ApprovalDto, toApprovalDto } from "./approval-dto.ts";
import { findApprovalRequest } from "./find-approval-request.ts";

export interface GetApprovalRequestOptions {
  auth: AuthContext;
  approvalRequestId: string;
}

/** Reads an approval request; needs the read scope of the approval's resource (e.g. `wallets:read` for `wallets:write`). */
export async function getApprovalRequest(db: Queryable, { auth, approvalRequestId }: GetApprovalRequestOptions): Promise<ApprovalDto> {
  const row = await findApprovalRequest(db, auth, approvalRequestId);
  const readScope = `${row.scope.split(":")[0]}:read`;
  if (!hasScope(auth.scopes, readScope)) {
    throw new ServiceError("FORBIDDEN", `This API key lacks the scope ${readScope} required to read this approval request`);
  }
  return toApprovalDto(row);
}
