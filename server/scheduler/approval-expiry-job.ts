// Makes approval (and issuance) request expiry an event (server/domain/approvals/sweep-expired-approvals.ts), first at
// start (expiries while no instance ran), then every interval. Several instances may each run it: the sweep claims requests FOR UPDATE SKIP
// LOCKED, so each expiry is emitted once.
import type { Queryable } from "../db/kysely.ts";
import { SWEEP_BATCH, sweepExpiredApprovals } from "../domain/approvals/sweep-expired-approvals.ts";
import type { PeriodicJob } from "./periodic-job.ts";

/** A backlog (the first start after a while) is swept a bounded number of batches per run. */
export const SWEEP_BATCHES_PER_RUN = 10;

export function approvalExpiryJob(options: { db: Queryable; intervalMs: number }): PeriodicJob {
  const { db, intervalMs } = options;
  return {
    name: "expired approval sweep",
    intervalMs,
    firstRunAfterMs: 0,
    async run() {
      const at = new Date();
      for (let batch = 0; batch < SWEEP_BATCHES_PER_RUN; batch++) {
        if ((await sweepExpiredApprovals(db, { now: at })).swept < SWEEP_BATCH) break;
      }
    },
  };
}
