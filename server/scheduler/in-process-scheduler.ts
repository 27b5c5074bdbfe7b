// The in-process scheduler: every periodic job of one server process, started and stopped here (server/serve.ts), each
// on the shared loop (periodic-job.ts: no overlap, failures logged, stop waits for the run in flight). Several server
// instances may each run every job; each job file says what keeps two of them from doing the same work twice.
import type { Config } from "../config.ts";
import type { Queryable } from "../db/kysely.ts";
import type { Logger } from "../logger.ts";
import { approvalExpiryJob } from "./approval-expiry-job.ts";
import { eventRetentionJob } from "./event-retention-job.ts";
import { idempotencyPurgeJob } from "./idempotency-purge-job.ts";
import { type PeriodicJob, startPeriodicJob } from "./periodic-job.ts";
import { providerReconcileJob } from "./provider-reconcile-job.ts";
import { spendPurgeJob } from "./spend-purge-job.ts";
import { workflowDispatchJob } from "./workflow-dispatch-job.ts";

/** Approval and issuance requests that expired are swept (and their events emitted) at most this often. */
export const SWEEP_INTERVAL_MS = 5_000;
/** Retention purges (idempotency records, old events, API keys' spends past 24 h) run this often. */
export const PURGE_INTERVAL_MS = 10 * 60_000;

export interface Scheduler {
  stop(): Promise<void>;
}

/** The jobs this configuration runs in this process. */
export function periodicJobs(options: {
  db: Queryable;
  config: Pick<Config, "schedulerIntervalMs" | "webhooks" | "reconcileAfterSeconds" | "retention">;
  logger?: Logger;
}): PeriodicJob[] {
  const { db, config, logger } = options;
  const jobs: PeriodicJob[] = [];
  // SCHEDULER_INTERVAL_MS=0: no dispatch here (an external cron calls POST corridor/workflows/dispatch).
  if (config.schedulerIntervalMs > 0) jobs.push(workflowDispatchJob({ db, intervalMs: config.schedulerIntervalMs, logger }));
  // The expiry sweep runs where the webhook delivery worker runs (WEBHOOK_POLL_INTERVAL_MS > 0), as it did when the
  // worker ran it on its poll: an instance that delivers no events sweeps none either.
  if (config.webhooks.pollIntervalMs > 0) jobs.push(approvalExpiryJob({ db, intervalMs: SWEEP_INTERVAL_MS }));
  // Every instance settles provider writes their requests left open (claims are exclusive: the job says how).
  jobs.push(providerReconcileJob({ db, reconcileAfterSeconds: config.reconcileAfterSeconds, logger }));
  jobs.push(idempotencyPurgeJob({ db, intervalMs: PURGE_INTERVAL_MS, batches: config.retention, logger }));
  jobs.push(spendPurgeJob({ db, intervalMs: PURGE_INTERVAL_MS, batches: config.retention, logger }));
  jobs.push(
    eventRetentionJob({
      db,
      intervalMs: PURGE_INTERVAL_MS,
      retentionDays: config.webhooks.retentionDays,
      batches: config.retention,
      logger,
    }),
  );
  return jobs;
}

export function startScheduler(options: { jobs: PeriodicJob[]; logger?: Logger }): Scheduler {
  const running = options.jobs.map((job) => startPeriodicJob(job, options.logger));
  return {
    async stop() {
      await Promise.all(running.map((job) => job.stop()));
    },
  };
}
