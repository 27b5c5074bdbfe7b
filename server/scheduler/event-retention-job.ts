// Purges events and their finished deliveries older than EVENT_RETENTION_DAYS (server/domain/events/purge-old-events.ts)
// every interval. Several instances may each run it: deleting what is already gone deletes nothing.
// Each run logs one line with its report (purge-log.ts).
import type { Queryable } from "../db/kysely.ts";
import type { RetentionBatches } from "../db/purge-in-batches.ts";
import { purgeOldEvents } from "../domain/events/purge-old-events.ts";
import type { Logger } from "../logger.ts";
import type { PeriodicJob } from "./periodic-job.ts";
import { logPurge } from "./purge-log.ts";

export function eventRetentionJob(options: {
  db: Queryable;
  intervalMs: number;
  retentionDays: number;
  batches?: RetentionBatches;
  logger?: Logger;
}): PeriodicJob {
  const { db, intervalMs, retentionDays, batches, logger } = options;
  const name = "event retention purge";
  return {
    name,
    intervalMs,
    async run() {
      logPurge(logger, name, await purgeOldEvents(db, { now: new Date(), retentionDays, batches }));
    },
  };
}
