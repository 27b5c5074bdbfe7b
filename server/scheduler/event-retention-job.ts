// Purges events and their finished deliveries older than EVENT_RETENTION_DAYS (server/domain/events/purge-old-events.ts)
// every interval. Several instances may each run it: deleting what is already gone deletes nothing.
import type { Queryable } from "../db/kysely.ts";
import type { RetentionBatches } from "../db/purge-in-batches.ts";
import { purgeOldEvents } from "../domain/events/purge-old-events.ts";
import type { PeriodicJob } from "./periodic-job.ts";

export function eventRetentionJob(options: {
  db: Queryable;
  intervalMs: number;
  retentionDays: number;
  batches?: RetentionBatches;
}): PeriodicJob {
  const { db, intervalMs, retentionDays, batches } = options;
  return {
    name: "event retention purge",
    intervalMs,
    async run() {
      await purgeOldEvents(db, { now: new Date(), retentionDays, batches });
    },
  };
}
