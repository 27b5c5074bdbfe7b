// Lists issuance requests, newest first, filtered by issuer, kind and (derived) status. The status lives on the
// approval request, so the filter joins the two tables.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";
import { type IssuanceStatus, joinedToDto, selectIssuanceRequests } from "./issuance-request-dto.ts";

export interface ListIssuanceRequestsOptions {
  issuerId?: string;
  kind?: "mint" | "burn";
  status?: IssuanceStatus;
  limit: number;
  offset: number;
}

export async function listIssuanceRequests(
  db: Queryable,
  auth: AuthContext,
  options: ListIssuanceRequestsOptions,
): Promise<components["schemas"]["IssuanceRequestList"]> {
  const now = new Date();
  let query = selectIssuanceRequests(db, auth);
  if (options.issuerId) query = query.where("ir.issuerId", "=", options.issuerId);
  if (options.kind) query = query.where("ir.kind", "=", options.kind);
  switch (options.status) {
    case "pending_approval":
      query = query.where("ar.status", "=", "pending").where("ar.expiresAt", ">", now);
      break;
    case "expired":
      query = query.where("ar.status", "=", "pending").where("ar.expiresAt", "<=", now);
      break;
    case "approved":
    case "rejected":
      query = query.where("ar.status", "=", options.status);
      break;
  }
  const [counted, page] = await Promise.all([
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow(),
    query.orderBy("ir.createdAt", "desc").orderBy("ir.id", "desc").limit(options.limit).offset(options.offset).execute(),
  ]);
  const data = page.flatMap((row) => {
    const dto = joinedToDto(row, now);
    return dto ? [dto] : [];
  });
  const count = Number(counted.count);
  const hasMore = options.offset + page.length < count;
  return {
    count,
    limit: options.limit,
    offset: options.offset,
    data,
    hasMore,
    nextCursor: hasMore ? (data.at(-1)?.issuanceRequestId ?? null) : null,
  };
}
