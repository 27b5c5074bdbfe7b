// Retention of idempotency records. Reservation, replay and completion happen in the request's unit of work
// (server/db/unit-of-work/idempotency-claim.ts); this only removes records past their retention (IDEMPOTENCY_TTL_HOURS), in bounded
// batches (server/db/purge-in-batches.ts).
import type { Queryable } from "../db/kysely.ts";
import { DEFAULT_RETENTION_BATCHES, purgeInBatches, type RetentionBatches } from "../db/purge-in-batches.ts";

/** Deletes expired records; returns how many. */
export async function purgeExpiredIdempotencyRecords(
  db: Queryable,
  now: Date = new Date(),
  batches: RetentionBatches = DEFAULT_RETENTION_BATCHES,
  onBatch?: (deleted: number, ms: number) => void,
): Promise<number> {
  return purgeInBatches(
    async (limit) => {
      const result = await db
        .deleteFrom("IdempotencyRecord")
        .where("id", "in", (eb) => eb.selectFrom("IdempotencyRecord").select("id").where("expiresAt", "<=", now).limit(limit))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    batches,
    onBatch,
  );
}
