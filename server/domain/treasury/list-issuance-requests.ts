// Lists issuance requests, newest first, filtered by issuer, kind, (derived) status and creation time; cursor-paged by
// the shared pager like every list, with the `offset` and `count` of the list's first, offset-paged contract kept. The
// status lives on the approval request, so the query joins the two tables.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { type IssuanceStatus, joinedToDto, selectIssuanceRequests } from "./issuance-request-dto.ts";

/** What the list's page size defaults to (its first contract said 20; the other lists say 10). */
export const ISSUANCE_PAGE_SIZE = 20;

export interface ListIssuanceRequestsOptions {
  auth: AuthContext;
  window: PageWindow;
  issuerId?: string;
  kind?: "mint" | "burn";
  status?: IssuanceStatus;
  offset: number;
}

export async function listIssuanceRequests(
  db: Queryable,
  options: ListIssuanceRequestsOptions,
): Promise<components["schemas"]["IssuanceRequestList"]> {
  const { auth, window, offset } = options;
  if (offset > 0 && window.startingAfter !== undefined) {
    throw validationError("/query/offset", "cannot be combined with startingAfter (the cursor already says where the page starts)");
  }
  const now = new Date();
  type Query = ReturnType<typeof selectIssuanceRequests>;
  const filters = (query: Query): Query => {
    let q = query;
    if (options.issuerId) q = q.where("ir.issuerId", "=", options.issuerId);
    if (options.kind) q = q.where("ir.kind", "=", options.kind);
    switch (options.status) {
      case "pending_approval":
        return q.where("ar.status", "=", "pending").where("ar.expiresAt", ">", now);
      case "expired":
        return q.where("ar.status", "=", "pending").where("ar.expiresAt", "<=", now);
      case "approved":
      case "rejected":
        return q.where("ar.status", "=", options.status);
    }
    return q;
  };
  const counted = filters(selectIssuanceRequests(db, auth))
    .$if(window.createdAfter !== undefined, (q) => q.where("ir.createdAt", ">", window.createdAfter as Date))
    .$if(window.createdBefore !== undefined, (q) => q.where("ir.createdAt", "<", window.createdBefore as Date))
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  // The cursor is looked up among all of the caller's requests (filters may change between pages); the filters and the
  // range apply to the page, and `count` counts the matching requests across every page.
  const [count, page] = await Promise.all([
    counted,
    newestFirstPage(selectIssuanceRequests(db, auth), {
      ...window,
      offset,
      table: "ir",
      unknownCursor: unknownCursor("an issuance request"),
      filter: filters,
    }),
  ]);
  const data = page.rows.flatMap((row) => {
    const dto = joinedToDto(row, now);
    return dto ? [dto] : [];
  });
  return {
    count: Number(count.count),
    limit: window.limit,
    offset,
    data,
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
  };
}
