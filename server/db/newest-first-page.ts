// Keyset pagination, newest first on (createdAt, id): the cursor is the last row's id of the previous page, looked up
// in the same tenant-scoped query, so a cursor from another organization, environment or parent is an unknown cursor
// (a 400, never a page of someone else's list). Rows whose createdAt is newer than the first page's appear at the head,
// never inside later pages; a row stamped with an older createdAt but committed later (an event whose request ran long)
// can land behind the cursor, which is why docs/webhooks.md tells integrators to catch up with an overlap. Every table
// paged this way has an index ending in (createdAt, id).
import { type SelectQueryBuilder, sql } from "kysely";
import type { DB } from "./kysely.ts";

export interface NewestFirstPage<Row> {
  rows: Row[];
  hasMore: boolean;
  nextCursor: string | null;
}

export async function newestFirstPage<TB extends keyof DB, Row extends { id: string }>(
  scoped: SelectQueryBuilder<DB, TB, Row>,
  options: {
    limit: number;
    startingAfter?: string;
    /** The error when the cursor is not a row of `scoped`. */
    unknownCursor: () => Error;
    /** Filters of this page (status, type, time range), applied after the cursor is found in the scoped list. */
    filter?: (query: SelectQueryBuilder<DB, TB, Row>) => SelectQueryBuilder<DB, TB, Row>;
  },
): Promise<NewestFirstPage<Row>> {
  const { limit, startingAfter } = options;
  let query = scoped;
  if (startingAfter !== undefined) {
    const cursor = await scoped
      .clearSelect()
      .select([sql<Date>`"createdAt"`.as("createdAt"), sql<string>`"id"`.as("id")])
      .where(sql<boolean>`"id" = ${startingAfter}`)
      .executeTakeFirst();
    if (!cursor) throw options.unknownCursor();
    query = query.where(sql<boolean>`("createdAt", "id") < (${cursor.createdAt}, ${cursor.id})`);
  }
  if (options.filter) query = options.filter(query);
  const rows = await query
    .orderBy(sql`"createdAt"`, "desc")
    .orderBy(sql`"id"`, "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { rows: page, hasMore, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
}
