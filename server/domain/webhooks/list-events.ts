import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { toEventDto } from "./event-dto.ts";

type Page = components["schemas"]["EventList"];
type EventType = components["schemas"]["EventType"];

/** The caller's events, newest first (createdAt, then id; index organizationId, environment, createdAt, id). */
export async function listEvents(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow; types?: EventType[]; resourceId?: string },
): Promise<Page> {
  const { auth, window, types, resourceId } = options;
  const page = await newestFirstPage(db.selectFrom("Event").selectAll().where(ownedBy(auth)), {
    ...window,
    unknownCursor: unknownCursor("an event"),
    filter: (query) =>
      query
        .$if(types !== undefined && types.length > 0, (q) => q.where("type", "in", types as EventType[]))
        .$if(resourceId !== undefined, (q) => q.where("resourceId", "=", resourceId as string)),
  });
  return { data: page.rows.map(toEventDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
