import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage } from "../../db/newest-first-page.ts";
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
  const scoped = db
    .selectFrom("Event")
    .selectAll()
    .where("organizationId", "=", auth.organizationId)
    .where("environment", "=", auth.environment);
  const page = await newestFirstPage(scoped, {
    limit,
    startingAfter,
    unknownCursor: () => validationError("/query/startingAfter", "is not an event of this organization and environment"),
    filter: (query) =>
      query
        .$if(filter.types !== undefined && filter.types.length > 0, (q) => q.where("type", "in", filter.types as EventType[]))
        .$if(createdAfter !== undefined, (q) => q.where("createdAt", ">", createdAfter as Date))
        .$if(createdBefore !== undefined, (q) => q.where("createdAt", "<", createdBefore as Date)),
  });
  return { data: page.rows.map(toEventDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
