// The workflow dispatcher: called by POST corridor/workflows/dispatch and by the in-process scheduler (same code).
// It claims due runs one at a time — `SELECT … FOR UPDATE SKIP LOCKED` in a transaction of its own, so concurrent
// dispatchers (several server instances) never hold the same run — and advances each claimed run by one step in that
// transaction. A run is advanced at most once per call. (Not a request: no idempotency key; a background unit of work, server/db/background-unit-of-work.ts; the
// transaction stays open across the step's provider calls because it holds the claim, see run-step.ts.)
import { runBackgroundUnitOfWork } from "../db/background-unit-of-work.ts";
import type { Queryable } from "../db/kysely.ts";
import type { Logger } from "../logger.ts";
import { advanceRun, type DispatchedStep, recordDispatchError } from "./advance-run.ts";

export const DISPATCH_LIMIT = 50;

export interface DispatchResult {
  dispatched: DispatchedStep[];
  count: number;
}

export async function dispatchDueRuns(options: { db: Queryable; logger?: Logger; limit?: number }): Promise<DispatchResult> {
  const { db, logger } = options;
  const limit = Math.min(options.limit ?? DISPATCH_LIMIT, DISPATCH_LIMIT);
  const dispatched: DispatchedStep[] = [];
  const seen: string[] = [];
  while (dispatched.length < limit) {
    const now = new Date();
    const claim: { id: string | null } = { id: null };
    try {
      const result = await runBackgroundUnitOfWork(db, now, async (uow) => {
        const run = await uow.tx
          .selectFrom("WorkflowRun")
          .selectAll()
          .where("status", "in", ["queued", "running"])
          .where("nextRunAt", "<=", now)
          .$if(seen.length > 0, (qb) => qb.where("id", "not in", seen))
          .orderBy("nextRunAt", "asc")
          .orderBy("id", "asc")
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!run) return { claimed: false as const };
        claim.id = run.id;
        return { claimed: true as const, step: await advanceRun(uow, run) };
      });
      if (!result.claimed) break;
      if (claim.id) seen.push(claim.id);
      if (result.step) dispatched.push(result.step);
    } catch (error) {
      // One run's failure (a bug, a lost connection) must not stop the others. Its transaction rolled back, so no
      // effect of the step committed; count the attempt so the run backs off, and skip it for this call.
      const runId = claim.id;
      if (!runId) throw error;
      seen.push(runId);
      logger?.error({ err: error, workflowRunId: runId }, "workflow run dispatch failed");
      const recorded = await runBackgroundUnitOfWork(db, new Date(), (uow) => recordDispatchError(uow, runId)).catch((err) =>
        logger?.warn({ err, workflowRunId: runId }, "could not record the failed dispatch"),
      );
      if (recorded) dispatched.push(recorded);
    }
  }
  return { dispatched, count: dispatched.length };
}
