// What the event checks of check:invariants (invariants.ts) share across families: the events of a family counted per
// resource and type, and which resources to hold to them — those whose provider intent is settled (an open one is the
// reconciler's, and may not have announced itself yet).
import { type SqlBool, sql } from "kysely";
import type { Queryable } from "../../db/kysely.ts";

/** For a query on `<resource table> as t`: no provider intent of the resource is open. */
export const intentSettled = sql<SqlBool>`not exists (select 1 from "ProviderIntent" as i where i."resourceId" = "t"."id")`;

/** The events whose type starts with `prefix` (e.g. `custody_transfer.`) since `since`: resource id → type → count. */
export async function eventCounts(db: Queryable, prefix: string, since: Date): Promise<Map<string, Map<string, number>>> {
  const rows = await db
    .selectFrom("Event")
    .select(["resourceId", "type", (eb) => eb.fn.countAll<string>().as("count")])
    .where("type", "like", `${prefix}%`)
    .where("createdAt", ">", since)
    .groupBy(["resourceId", "type"])
    .execute();
  const counted = new Map<string, Map<string, number>>();
  for (const r of rows) counted.set(r.resourceId, (counted.get(r.resourceId) ?? new Map()).set(r.type, Number(r.count)));
  return counted;
}

/** How many `type` activity rows (what the metrics catalogue counts: server/domain/metrics/catalogue.ts) each resource
 * has since `since`: resource id → count. */
export async function activityCounts(db: Queryable, type: string, since: Date): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("ActivityEvent")
    .select(["resourceId", (eb) => eb.fn.countAll<string>().as("count")])
    .where("type", "=", type)
    .where("createdAt", ">", since)
    .groupBy("resourceId")
    .execute();
  return new Map(rows.map((r) => [r.resourceId, Number(r.count)]));
}
