// The loop every periodic job under server/scheduler/ runs on: `run` once `firstRunAfterMs` has passed (default: one
// interval), then again `intervalMs` after each run ends — so runs of one job never overlap, and there is no jitter. A
// failing run is logged ("<name> failed") and the next one runs as usual; nothing is thrown. Timers are unref'd (a job
// never keeps the process alive); `stop()` cancels the next run and waits for the one in flight.
import type { Logger } from "../logger.ts";

export interface PeriodicJob {
  /** What the job does, as its failure is logged: "<name> failed". */
  name: string;
  intervalMs: number;
  /** Delay before the first run (default `intervalMs`). */
  firstRunAfterMs?: number;
  run(): Promise<void>;
}

export interface RunningJob {
  stop(): Promise<void>;
}

export function startPeriodicJob(job: PeriodicJob, logger?: Logger): RunningJob {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = () => {
    inFlight = Promise.resolve()
      .then(() => job.run())
      .catch((err) => logger?.warn({ err }, `${job.name} failed`))
      .finally(() => {
        if (!stopped) schedule(job.intervalMs);
      });
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(tick, delayMs);
    timer.unref();
  };
  schedule(job.firstRunAfterMs ?? job.intervalMs);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
