// Settles the provider writes their requests did not finish (server/domain/reconcile/reconcile-intents.ts): every
// interval, a bounded number of batches of intents past their deadline. Every instance runs it: intents are claimed
// FOR UPDATE SKIP LOCKED with a lease of the run's own, so two instances never settle one intent. Each run that found
// work, and each run while intents are past their deadline, logs a line "provider reconciler" with its counts and the
// backlog (README "Operations").
import type { Queryable } from "../db/kysely.ts";
import { intentBacklog } from "../db/provider-intents.ts";
import { INTENT_HANDLERS } from "../domain/reconcile/intent-handlers.ts";
import { RECONCILE_BATCH, type ReconcileResult, reconcileDueIntents } from "../domain/reconcile/reconcile-intents.ts";
import type { Logger } from "../logger.ts";
import type { PeriodicJob } from "./periodic-job.ts";

/** A backlog is worked through a bounded number of batches per run. */
export const RECONCILE_BATCHES_PER_RUN = 5;
/** Longest pause between runs; a short RECONCILE_AFTER_SECONDS runs it more often. */
export const RECONCILE_INTERVAL_MS = 5_000;

export interface ProviderReconcileJob extends PeriodicJob {
  /** One run at `now` (tests drive it directly, at a chosen time); returns the totals. */
  runAt(now: Date): Promise<ReconcileResult>;
}

export function providerReconcileJob(options: { db: Queryable; reconcileAfterSeconds: number; logger?: Logger }): ProviderReconcileJob {
  const { db, reconcileAfterSeconds, logger } = options;
  const runAt = async (now: Date): Promise<ReconcileResult> => {
    const total: ReconcileResult = { claimed: 0, settled: 0, retried: 0, gaveUp: 0, errors: [] };
    for (let batch = 0; batch < RECONCILE_BATCHES_PER_RUN; batch++) {
      const result = await reconcileDueIntents(db, { now, reconcileAfterSeconds, handlers: INTENT_HANDLERS });
      total.claimed += result.claimed;
      total.settled += result.settled;
      total.retried += result.retried;
      total.gaveUp += result.gaveUp;
      total.errors.push(...result.errors);
      if (result.claimed < RECONCILE_BATCH) break;
    }
    const backlog = total.claimed > 0 || total.errors.length > 0 ? await intentBacklog(db, now) : undefined;
    if (backlog) logger?.info({ ...total, backlog }, "provider reconciler");
    return total;
  };
  return {
    name: "provider reconciler",
    intervalMs: Math.min(RECONCILE_INTERVAL_MS, reconcileAfterSeconds * 1000),
    firstRunAfterMs: 0,
    run: async () => {
      await runAt(new Date());
    },
    runAt,
  };
}
