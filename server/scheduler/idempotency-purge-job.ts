// Deletes idempotency records past their retention (IDEMPOTENCY_TTL_HOURS; server/idempotency/idempotency-store.ts)
// every interval, in bounded batches. Several instances may each run it: one DELETE of expired rows, safe to repeat.
import type { Queryable } from "../db/kysely.ts";
import type { RetentionBatches } from "../db/purge-in-batches.ts";
import { purgeExpiredIdempotencyRecords } from "../idempotency/idempotency-store.ts";
import type { PeriodicJob } from "./periodic-job.ts";

export function idempotencyPurgeJob(options: { db: Queryable; intervalMs: number; batches?: RetentionBatches }): PeriodicJob {
  const { db, intervalMs, batches } = options;
  return {
    name: "idempotency purge",
    intervalMs,
    async run() {
      await purgeExpiredIdempotencyRecords(db, new Date(), batches);
    },
  };
}
