// Deletes idempotency records past their retention (IDEMPOTENCY_TTL_HOURS; server/idempotency/idempotency-store.ts)
// every interval. Several instances may each run it: one DELETE of expired rows, safe to repeat.
import type { Queryable } from "../db/kysely.ts";
import { purgeExpiredIdempotencyRecords } from "../idempotency/idempotency-store.ts";
import type { PeriodicJob } from "./periodic-job.ts";

export function idempotencyPurgeJob(options: { db: Queryable; intervalMs: number }): PeriodicJob {
  const { db, intervalMs } = options;
  return {
    name: "idempotency purge",
    intervalMs,
    async run() {
      await purgeExpiredIdempotencyRecords(db);
    },
  };
}
