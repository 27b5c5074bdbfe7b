// Deletes idempotency records past their retention (IDEMPOTENCY_TTL_HOURS; server/idempotency/idempotency-store.ts)
// every interval, in bounded batches. Several instances may each run it: deleting what is already gone deletes nothing.
// Each run logs one line with its report (purge-log.ts).
import type { Queryable } from "../db/kysely.ts";
import type { RetentionBatches } from "../db/purge-in-batches.ts";
import { purgeExpiredIdempotencyRecords } from "../idempotency/idempotency-store.ts";
import type { Logger } from "../logger.ts";
import type { PeriodicJob } from "./periodic-job.ts";
import { logPurge } from "./purge-log.ts";

export function idempotencyPurgeJob(options: {
  db: Queryable;
  intervalMs: number;
  batches?: RetentionBatches;
  logger?: Logger;
}): PeriodicJob {
  const { db, intervalMs, batches, logger } = options;
  const name = "idempotency purge";
  return {
    name,
    intervalMs,
    async run() {
      logPurge(logger, name, await purgeExpiredIdempotencyRecords(db, new Date(), batches));
    },
  };
}
