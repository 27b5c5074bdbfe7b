// Retention of the outbox: events and their finished deliveries are kept EVENT_RETENTION_DAYS (default 30, like the
// event lists of the payment APIs integrators know), then purged in bounded batches so a purge never holds a long lock.
// A delivery still pending (its schedule spans ≈3 days) keeps its event however old, so nothing due is lost.
import { sql } from "kysely";
import type { Queryable } from "../../db/kysely.ts";

/** Rows deleted per statement: each batch is its own short statement. */
export const PURGE_BATCH = 1_000;

export async function purgeOldEvents(
  db: Queryable,
  options: { now: Date; retentionDays: number },
): Promise<{ deliveries: number; events: number }> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * 86_400_000);
  let deliveries = 0;
  let events = 0;
  for (;;) {
    // Attempts go with their delivery (ON DELETE CASCADE).
    const result = await db
      .deleteFrom("WebhookDelivery")
      .where("id", "in", (eb) =>
        eb.selectFrom("WebhookDelivery").select("id").where("createdAt", "<", cutoff).where("status", "<>", "pending").limit(PURGE_BATCH),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    deliveries += deleted;
    if (deleted < PURGE_BATCH) break;
  }
  for (;;) {
    const result = await db
      .deleteFrom("Event")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("Event as e")
          .select("e.id")
          .where("e.createdAt", "<", cutoff)
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom("WebhookDelivery as d").select(sql.lit(1).as("one")).whereRef("d.eventId", "=", "e.id"))),
          )
          .limit(PURGE_BATCH),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    events += deleted;
    if (deleted < PURGE_BATCH) break;
  }
  return { deliveries, events };
}
