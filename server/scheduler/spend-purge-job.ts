// Purges API keys' spends older than 24 hours (server/domain/spending-limits/purge-old-spends.ts) every interval.
// Several instances may each run it: deleting what is already gone deletes nothing.
import type { Queryable } from "../db/kysely.ts";
import type { RetentionBatches } from "../db/purge-in-batches.ts";
import { purgeOldSpends } from "../domain/spending-limits/purge-old-spends.ts";
import type { PeriodicJob } from "./periodic-job.ts";

export function spendPurgeJob(options: { db: Queryable; intervalMs: number; batches?: RetentionBatches }): PeriodicJob {
  const { db, intervalMs, batches } = options;
  return {
    name: "spending limit purge",
    intervalMs,
    async run() {
      await purgeOldSpends(db, { now: new Date(), batches });
    },
  };
}
