import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { toEventDto } from "./event-dto.ts";

type Page = components["schemas"]["EventList"];
type EventType = components["schemas"]["EventType"];

export interface ListEventsFilter {
  types?: EventType[];
  /** Exclusive bounds, as the query gave them (RFC 3339 date-times). */
  createdAfter?: string;
  createdBefore?: string;
}

/** The validator's date-time format check is syntactic (it lets `2026-13-01T00:00:00Z` through); an instant the clock
 * cannot represent is a bad input, never a 500 from the driver. */
function instant(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw validationError(`/query/${name}`, "is not a valid date-time");
  return date;
}

/** The caller's events, newest first (createdAt, then id; index organizationId, environment, createdAt, id). */
export async function listEvents(
  db: Queryable,
  options: { auth: AuthContext; limit: number; startingAfter?: string; filter: ListEventsFilter },
): Promise<Page> {
  const { auth, limit, startingAfter, filter } = options;
  const createdAfter = instant(filter.createdAfter, "createdAfter");
  const createdBefore = instant(filter.createdBefore, "createdBefore");
  let query = db
    .selectFrom("Event")
    .selectAll()
    .where("organizationId", "=", auth.organizationId)
    .where("environment", "=", auth.environment);
  if (startingAfter !== undefined) {
    const cursor = await query.clearSelect().select(["createdAt", "id"]).where("id", "=", startingAfter).executeTakeFirst();
    if (!cursor) throw validationError("/query/startingAfter", "is not an event of this organization and environment");
    query = query.where((eb) => eb(eb.refTuple("createdAt", "id"), "<", eb.tuple(cursor.createdAt, cursor.id)));
  }
  if (filter.types && filter.types.length > 0) query = query.where("type", "in", filter.types);
  if (createdAfter) query = query.where("createdAt", ">", createdAfter);
  if (createdBefore) query = query.where("createdAt", "<", createdBefore);
  const rows = await query
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { data: page.map(toEventDto), hasMore, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
}
