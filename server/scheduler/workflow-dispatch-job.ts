// Dispatches due corridor workflow runs every SCHEDULER_INTERVAL_MS (the same code as POST corridor/workflows/dispatch).
// Several server instances may each run it: the dispatcher's SKIP LOCKED claim keeps them from advancing the same run.
import type { Queryable } from "../db/kysely.ts";
import type { Logger } from "../logger.ts";
import { dispatchDueRuns } from "./dispatch-due-runs.ts";
import type { PeriodicJob } from "./periodic-job.ts";

export function workflowDispatchJob(options: { db: Queryable; intervalMs: number; logger?: Logger }): PeriodicJob {
  const { db, intervalMs, logger } = options;
  return {
    name: "scheduler dispatch",
    intervalMs,
    async run() {
      const result = await dispatchDueRuns({ db, logger });
      if (result.count > 0) logger?.info({ dispatched: result.count }, "scheduler dispatched workflow steps");
    },
  };
}
