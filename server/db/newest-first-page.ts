// Keyset pagination, newest first on (createdAt, id): the cursor is the last row's id of the previous page, looked up
// in the same tenant-scoped query, so a cursor from another organization, environment, parent or list is an unknown
// cursor (a 400, never a page of someone else's list). Rows whose createdAt is newer than the first page's appear at
// the head, never inside later pages; a row stamped with an older createdAt but committed later (an event whose request
// ran long) can land behind the cursor, which is why docs/webhooks.md tells integrators to catch up with an overlap.
// Every table paged this way has an index ending in (createdAt, id). Every cursor list of the API pages here.
import { type SelectQueryBuilder, sql } from "kysely";

export interface NewestFirstPage<Row> {
  rows: Row[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Which part of a list one page is: the query parameters every cursor list shares, the range already parsed. */
export interface PageWindow {
  limit: number;
  startingAfter?: string;
  /** Exclusive bounds on createdAt. */
  createdAfter?: Date;
  createdBefore?: Date;
  /** Rows skipped after the cursor: only for a list that kept `offset` when it gained cursors (issuance requests). */
  offset?: number;
}

export async function newestFirstPage<D, TB extends keyof D, Row extends { id: string }>(
  scoped: SelectQueryBuilder<D, TB, Row>,
  options: PageWindow & {
    /** The error when the cursor is not a row of `scoped`. */
    unknownCursor: () => Error;
    /** Filters of this page (status, type…), applied after the cursor is found in the scoped list. */
    filter?: (query: SelectQueryBuilder<D, TB, Row>) => SelectQueryBuilder<D, TB, Row>;
    /** The table (or its alias) whose createdAt and id order the list, when the query joins others. */
    table?: string;
  },
): Promise<NewestFirstPage<Row>> {
  const { limit, startingAfter, createdAfter, createdBefore, offset, table } = options;
  const createdAt = sql.ref(table ? `${table}.createdAt` : "createdAt");
  const id = sql.ref(table ? `${table}.id` : "id");
  let query = scoped;
  if (startingAfter !== undefined) {
    // Typed by hand: over any database type D, Kysely cannot narrow clearSelect().select(…) to the two columns chosen.
    const cursor = (await scoped
      .clearSelect()
      .select([sql<Date>`${createdAt}`.as("createdAt"), sql<string>`${id}`.as("id")])
      .where(sql<boolean>`${id} = ${startingAfter}`)
      .executeTakeFirst()) as { createdAt: Date; id: string } | undefined;
    if (!cursor) throw options.unknownCursor();
    query = query.where(sql<boolean>`(${createdAt}, ${id}) < (${cursor.createdAt}, ${cursor.id})`);
  }
  if (createdAfter !== undefined) query = query.where(sql<boolean>`${createdAt} > ${createdAfter}`);
  if (createdBefore !== undefined) query = query.where(sql<boolean>`${createdAt} < ${createdBefore}`);
  if (options.filter) query = options.filter(query);
  let paged = query
    .orderBy(sql`${createdAt}`, "desc")
    .orderBy(sql`${id}`, "desc")
    .limit(limit + 1);
  if (offset) paged = paged.offset(offset);
  const rows = await paged.execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { rows: page, hasMore, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
}
