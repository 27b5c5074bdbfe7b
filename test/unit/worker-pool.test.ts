// The bounded worker pool (server/lib/worker-pool.ts) that keeps solc off the event loop: results, a worker's own error,
// a timeout terminates and replaces the worker, a crash past the memory cap replaces it, the deadline covers the queue,
// close fails what is left.
import { afterEach, describe, expect, it } from "vitest";
import { WorkerJobError, WorkerPool, WorkerPoolError } from "../../server/lib/worker-pool.ts";

// An eval'd worker (CommonJS): "spin" blocks forever, "grow" allocates until the heap cap, "throw" reports an error,
// "retire" answers and asks to be replaced, anything else is echoed with the worker's thread id (to see replacements).
const WORKER = `
const { parentPort, threadId } = require("node:worker_threads");
parentPort.on("message", ({ id, input }) => {
  if (input === "spin") for (;;) {}
  if (input === "grow") { const hog = []; for (;;) hog.push(new Array(100000).fill(Math.random())); }
  if (input === "throw") return parentPort.postMessage({ id, error: "bad input" });
  if (input === "retire") return parentPort.postMessage({ id, result: { echo: input, threadId }, retire: true });
  parentPort.postMessage({ id, result: { echo: input, threadId } });
});
`;

type Result = { echo: string; threadId: number };
let pool: WorkerPool<string, Result> | undefined;
const makePool = (options: { size?: number; timeoutMs?: number; memoryMb?: number } = {}) => {
  pool = new WorkerPool<string, Result>({
    script: WORKER,
    eval: true,
    size: options.size ?? 1,
    timeoutMs: options.timeoutMs ?? 5_000,
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb ?? 64 },
  });
  return pool;
};

afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("WorkerPool", () => {
  it("runs jobs on at most `size` workers and reuses them", async () => {
    const p = makePool({ size: 2 });
    const results = await Promise.all(["a", "b", "c", "d", "e"].map((x) => p.run(x)));
    expect(results.map((r) => r.echo)).toEqual(["a", "b", "c", "d", "e"]);
    expect(new Set(results.map((r) => r.threadId)).size).toBeLessThanOrEqual(2);
    expect(p.stats()).toMatchObject({ live: expect.any(Number), busy: 0, queued: 0, replaced: 0 });
    expect(p.stats().live).toBeLessThanOrEqual(2);
  });

  it("passes a worker's own error through and keeps the worker", async () => {
    const p = makePool();
    const first = await p.run("x");
    await expect(p.run("throw")).rejects.toBeInstanceOf(WorkerJobError);
    const after = await p.run("y");
    expect(after.threadId).toBe(first.threadId);
    expect(p.stats().replaced).toBe(0);
  });

  it("times out a job that never finishes, terminates its worker, and serves the next job on a new one", async () => {
    const p = makePool({ timeoutMs: 300 });
    const first = await p.run("warm");
    const started = Date.now();
    const error = await p.run("spin").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerPoolError);
    expect((error as WorkerPoolError).reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3_000);
    const next = await p.run("after");
    expect(next.echo).toBe("after");
    expect(next.threadId).not.toBe(first.threadId);
    expect(p.stats().replaced).toBe(1);
  });

  it("counts the queue wait in the deadline: a job behind a stuck one times out without running", async () => {
    const p = makePool({ timeoutMs: 400 });
    const stuck = p.run("spin").catch((e: unknown) => e);
    const queued = p.run("queued").catch((e: unknown) => e);
    expect(((await stuck) as WorkerPoolError).reason).toBe("timeout");
    expect(((await queued) as WorkerPoolError).reason).toBe("timeout");
    expect((await p.run("later")).echo).toBe("later");
  });

  it("fails a job whose worker exceeds its memory cap, and replaces the worker", async () => {
    const p = makePool({ memoryMb: 16, timeoutMs: 20_000 });
    const error = await p.run("grow").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerPoolError);
    expect((error as WorkerPoolError).reason).toBe("crashed");
    expect((await p.run("after")).echo).toBe("after");
    expect(p.stats().replaced).toBe(1);
  });

  it("replaces a worker that answers with retire: true (memory it cannot give back) instead of reusing it", async () => {
    const p = makePool();
    const retiring = await p.run("retire");
    expect(retiring.echo).toBe("retire");
    const next = await p.run("after");
    expect(next.threadId).not.toBe(retiring.threadId);
    expect(p.stats().replaced).toBe(1);
  });

  it("close fails running and queued jobs and refuses new ones", async () => {
    const p = makePool({ timeoutMs: 10_000 });
    const running = p.run("spin").catch((e: unknown) => e);
    const queued = p.run("queued").catch((e: unknown) => e);
    await p.close();
    expect(((await running) as WorkerPoolError).reason).toBe("closed");
    expect(((await queued) as WorkerPoolError).reason).toBe("closed");
    await expect(p.run("x")).rejects.toMatchObject({ reason: "closed" });
    expect(p.stats().live).toBe(0);
  });
});
