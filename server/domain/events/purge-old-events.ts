// Retention of the outbox: events and their finished deliveries are kept EVENT_RETENTION_DAYS (default 30, like the
// event lists of the payment APIs integrators know), then purged in bounded batches so a purge never holds a long lock
// (server/db/purge-in-batches.ts). A delivery still pending (its schedule spans ≈3 days) keeps its event however old, so
// nothing due is lost.
import { sql } from "kysely";
import type { Queryable } from "../../db/kysely.ts";
import {
  type BatchListener,
  DEFAULT_RETENTION_BATCHES,
  mergePurgeReports,
  type PurgeReport,
  purgeInBatches,
  type RetentionBatches,
} from "../../db/purge-in-batches.ts";

/** Both passes' report as one run's, with the rows of each table. */
export type EventPurgeReport = PurgeReport & { deliveries: number; events: number };

export async function purgeOldEvents(
  db: Queryable,
  options: { now: Date; retentionDays: number; batches?: RetentionBatches; onBatch?: BatchListener },
): Promise<EventPurgeReport> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * 86_400_000);
  const batches = options.batches ?? DEFAULT_RETENTION_BATCHES;
  // Attempts go with their delivery (ON DELETE CASCADE).
  // A deliveries' pass stopped at the floor (a delivery row locked by a worker) does not keep the events' pass from
  // running: the events it would have freed just wait for the next run.
  const deliveries = await purgeInBatches(
    db,
    async (tx, limit) => {
      const result = await tx
        .deleteFrom("WebhookDelivery")
        .where("id", "in", (eb) =>
          eb.selectFrom("WebhookDelivery").select("id").where("createdAt", "<", cutoff).where("status", "<>", "pending").limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    batches,
    options.onBatch,
  );
  const events = await purgeInBatches(
    db,
    async (tx, limit) => {
      const result = await tx
        .deleteFrom("Event")
        .where("id", "in", (eb) =>
          eb
            .selectFrom("Event as e")
            .select("e.id")
            .where("e.createdAt", "<", cutoff)
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom("WebhookDelivery as d").select(sql.lit(1).as("one")).whereRef("d.eventId", "=", "e.id"))),
            )
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    batches,
    options.onBatch,
  );
  return { ...mergePurgeReports(deliveries, events), deliveries: deliveries.rows, events: events.rows };
}
