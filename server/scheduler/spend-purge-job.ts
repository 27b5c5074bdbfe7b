// Purges API keys' spends older than 24 hours (server/domain/spending-limits/purge-old-spends.ts) every interval.
// Several instances may each run it: deleting what is already gone deletes nothing.
// Each run logs one line with its report (purge-log.ts).
import type { Queryable } from "../db/kysely.ts";
import type { RetentionBatches } from "../db/purge-in-batches.ts";
import { purgeOldSpends } from "../domain/spending-limits/purge-old-spends.ts";
import type { Logger } from "../logger.ts";
import type { PeriodicJob } from "./periodic-job.ts";
import { logPurge } from "./purge-log.ts";

export function spendPurgeJob(options: { db: Queryable; intervalMs: number; batches?: RetentionBatches; logger?: Logger }): PeriodicJob {
  const { db, intervalMs, batches, logger } = options;
  const name = "spending limit purge";
  return {
    name,
    intervalMs,
    async run() {
      logPurge(logger, name, await purgeOldSpends(db, { now: new Date(), batches }));
    },
  };
}
