// Lists approval requests, newest first. Reading one needs the read scope of the resource in its `scope`
// (get-approval-request.ts), so the list holds exactly the requests the key could read one by one: the others are
// left out (a list has no single resource to refuse with 403).
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { type ApprovalStatus, approvalStatusIs, toApprovalDto } from "./approval-dto.ts";

/** The approval scopes a key may read: `<resource>:read` and `<resource>:write` of each resource it holds a scope of
 * (write implies read, and either level lets it read). */
export function readableApprovalScopes(granted: readonly string[]): string[] {
  const resources = new Set(granted.map((scope) => scope.split(":")[0] as string));
  return [...resources].flatMap((resource) => [`${resource}:read`, `${resource}:write`]);
}

export async function listApprovalRequests(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow; status?: ApprovalStatus },
): Promise<components["schemas"]["ApprovalRequestList"]> {
  const { auth, window, status } = options;
  const now = new Date();
  const scopes = readableApprovalScopes(auth.scopes);
  const scoped = db
    .selectFrom("ApprovalRequest")
    .selectAll()
    .where(ownedBy(auth))
    .where((eb) => (scopes.length > 0 ? eb("scope", "in", scopes) : eb.lit(false)));
  const page = await newestFirstPage(scoped, {
    ...window,
    unknownCursor: () =>
      validationError("/query/startingAfter", "is not an approval request this key can read in this organization and environment"),
    filter: (query) => (status === undefined ? query : query.where(approvalStatusIs(status, now))),
  });
  return { data: page.rows.map((row) => toApprovalDto(row, now)), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
