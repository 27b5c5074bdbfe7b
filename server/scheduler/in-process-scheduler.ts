// The in-process scheduler: dispatches due corridor workflow runs every `intervalMs` (SCHEDULER_INTERVAL_MS; 0 disables
// it in main.ts). Ticks never overlap; `stop()` waits for the tick in flight. Several server instances may each run
// one: the dispatcher's SKIP LOCKED claim keeps them from advancing the same run.
import type { Queryable } from "../db/kysely.ts";
import type { Logger } from "../logger.ts";
import { dispatchDueRuns } from "./dispatch-due-runs.ts";

export interface Scheduler {
  stop(): Promise<void>;
}

export function startScheduler(options: { db: Queryable; intervalMs: number; logger?: Logger }): Scheduler {
  const { db, intervalMs, logger } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = () => {
    inFlight = dispatchDueRuns({ db, logger })
      .then((result) => {
        if (result.count > 0) logger?.info({ dispatched: result.count }, "scheduler dispatched workflow steps");
      })
      .catch((err) => logger?.warn({ err }, "scheduler dispatch failed"))
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
