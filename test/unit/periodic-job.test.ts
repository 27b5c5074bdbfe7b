// The loop every periodic job runs on (server/scheduler/periodic-job.ts) and which jobs a configuration starts
// (server/scheduler/in-process-scheduler.ts). Real timers, short intervals.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { loadServerConfig } from "../../server/config.ts";
import { createLogger } from "../../server/logger.ts";
import { PURGE_INTERVAL_MS, periodicJobs, SWEEP_INTERVAL_MS } from "../../server/scheduler/in-process-scheduler.ts";
import { startPeriodicJob } from "../../server/scheduler/periodic-job.ts";
import { RECONCILE_INTERVAL_MS } from "../../server/scheduler/provider-reconcile-job.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function memoryLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger("info", stream), lines };
}

describe("startPeriodicJob", () => {
  it("never runs a job twice at once, however short its interval", async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const job = startPeriodicJob({
      name: "slow job",
      intervalMs: 1,
      firstRunAfterMs: 0,
      async run() {
        running++;
        most = Math.max(most, running);
        await sleep(20);
        running--;
        runs++;
      },
    });
    await sleep(120);
    await job.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(most).toBe(1);
  });

  it("logs a failing run as '<name> failed' and runs again", async () => {
    const { logger, lines } = memoryLogger();
    let calls = 0;
    const job = startPeriodicJob(
      {
        name: "flaky purge",
        intervalMs: 5,
        firstRunAfterMs: 0,
        async run() {
          calls++;
          if (calls === 1) throw new Error("database went away");
        },
      },
      logger,
    );
    for (let i = 0; i < 100 && calls < 2; i++) await sleep(5);
    await job.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(lines.filter((line) => line.msg === "flaky purge failed")).toHaveLength(1);
  });

  it("waits one interval before the first run unless told otherwise", async () => {
    let runs = 0;
    const job = startPeriodicJob({
      name: "hourly",
      intervalMs: 3_600_000,
      async run() {
        runs++;
      },
    });
    await sleep(30);
    await job.stop();
    expect(runs).toBe(0);
  });

  it("stop() waits for the run in flight, and nothing runs after it", async () => {
    let started = 0;
    let finished = 0;
    const job = startPeriodicJob({
      name: "long job",
      intervalMs: 1,
      firstRunAfterMs: 0,
      async run() {
        started++;
        await sleep(40);
        finished++;
      },
    });
    await sleep(10);
    await job.stop();
    expect(finished).toBe(started);
    const after = started;
    await sleep(30);
    expect(started).toBe(after);
  });
});

describe("periodicJobs", () => {
  const db = {} as never;
  const jobsOf = (env: Record<string, string>) =>
    periodicJobs({ db, config: loadServerConfig({ NODE_ENV: "test", ...env }) }).map((job) => [job.name, job.intervalMs]);

  it("runs the dispatch every SCHEDULER_INTERVAL_MS, the expiry sweep where webhooks are delivered, the reconciler and the purges", () => {
    expect(jobsOf({ SCHEDULER_INTERVAL_MS: "700", WEBHOOK_POLL_INTERVAL_MS: "250" })).toEqual([
      ["scheduler dispatch", 700],
      ["expired approval sweep", SWEEP_INTERVAL_MS],
      ["provider reconciler", RECONCILE_INTERVAL_MS],
      ["idempotency purge", PURGE_INTERVAL_MS],
      ["spending limit purge", PURGE_INTERVAL_MS],
      ["event retention purge", PURGE_INTERVAL_MS],
    ]);
  });

  it("leaves out the dispatch with SCHEDULER_INTERVAL_MS=0 and the sweep with WEBHOOK_POLL_INTERVAL_MS=0; the reconciler (at most every RECONCILE_AFTER_SECONDS) and the purges always run", () => {
    expect(jobsOf({ SCHEDULER_INTERVAL_MS: "0", WEBHOOK_POLL_INTERVAL_MS: "0", RECONCILE_AFTER_SECONDS: "2" })).toEqual([
      ["provider reconciler", 2_000],
      ["idempotency purge", PURGE_INTERVAL_MS],
      ["spending limit purge", PURGE_INTERVAL_MS],
      ["event retention purge", PURGE_INTERVAL_MS],
    ]);
  });
});
