// Retention of idempotency records. Reservation, replay and completion happen in the request's unit of work
// (server/db/unit-of-work/idempotency-claim.ts); this only removes records past their retention (IDEMPOTENCY_TTL_HOURS), in bounded
// batches (server/db/purge-in-batches.ts).
import type { Queryable } from "../db/kysely.ts";
import {
  type BatchListener,
  DEFAULT_RETENTION_BATCHES,
  type PurgeReport,
  purgeInBatches,
  type RetentionBatches,
} from "../db/purge-in-batches.ts";

/** Deletes expired records; reports how many, in how many batches. */
export async function purgeExpiredIdempotencyRecords(
  db: Queryable,
  now: Date = new Date(),
  batches: RetentionBatches = DEFAULT_RETENTION_BATCHES,
  onBatch?: BatchListener,
): Promise<PurgeReport> {
  return purgeInBatches(
    db,
    async (tx, limit) => {
      const result = await tx
        .deleteFrom("IdempotencyRecord")
        // Oldest first, by the index on expiresAt: each batch then starts where the last one ended, past index entries
        // the previous batch left dead (the next scan marks them, so they are skipped after). Without the order the
        // planner, whose statistics still count the rows already deleted, chose a sequential scan that reads every
        // page the purge has emptied so far: later batches of a million-row purge took over 300 ms, past the bound,
        // whatever their size.
        .where("id", "in", (eb) =>
          eb.selectFrom("IdempotencyRecord").select("id").where("expiresAt", "<=", now).orderBy("expiresAt").limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    batches,
    onBatch,
  );
}
