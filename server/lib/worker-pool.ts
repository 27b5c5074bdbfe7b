// A small bounded pool of worker threads for CPU-bound work that must not run on the event loop (solc: see
// server/domain/contracts/compile-solidity.ts). At most `size` workers, started on demand, one job each at a time; the
// other jobs wait in a FIFO queue. Every job has one deadline, `timeoutMs` from submission (queue wait included): a job
// still queued then is dropped, a running one has its worker terminated (solc cannot be interrupted any other way) and
// the worker is replaced by the next job that needs one. A worker that crashes or exceeds its `resourceLimits` fails its
// job and is replaced the same way. Idle workers are unref'd, so the pool never keeps a process alive by itself.
//
// Protocol with the worker file: the pool posts `{ id, input }`; the worker answers `{ id, result }` or `{ id, error }`,
// with `retire: true` when it should not get another job (e.g. memory it cannot give back): it is then replaced.
import { type ResourceLimits, Worker } from "node:worker_threads";

export type WorkerFailureReason = "timeout" | "crashed" | "closed";

/** The job did not complete: it timed out, its worker crashed (or ran out of memory), or the pool was closed. */
export class WorkerPoolError extends Error {
  readonly reason: WorkerFailureReason;

  constructor(reason: WorkerFailureReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
    this.name = "WorkerPoolError";
  }
}

/** The worker ran the job and reported an error (a thrown exception inside it). The worker stays in service. */
export class WorkerJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerJobError";
  }
}

export interface WorkerPoolOptions {
  /** The worker script (an ES module that needs no loader). With `eval: true`, its source text (tests). */
  script: URL | string;
  eval?: boolean;
  size: number;
  timeoutMs: number;
  resourceLimits?: ResourceLimits;
  /** Passed to every worker as `workerData`. */
  workerData?: unknown;
}

interface Job {
  id: number;
  input: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  worker?: Worker;
  done: boolean;
}

export interface WorkerPoolStats {
  size: number;
  live: number;
  busy: number;
  queued: number;
  /** Workers terminated or lost (timeout, crash) and replaced since the pool started. */
  replaced: number;
}

export class WorkerPool<I, O> {
  private readonly options: WorkerPoolOptions;
  private readonly workers = new Map<Worker, Job | undefined>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private replaced = 0;
  private closed = false;

  constructor(options: WorkerPoolOptions) {
    this.options = options;
    if (options.size < 1) throw new Error("WorkerPool size must be ≥ 1");
  }

  /** Runs `input` on a worker; resolves with its result within `timeoutMs` or rejects (WorkerPoolError, WorkerJobError). */
  run(input: I): Promise<O> {
    if (this.closed) return Promise.reject(new WorkerPoolError("closed", "the worker pool is closed"));
    return new Promise<O>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        input,
        resolve: resolve as (value: unknown) => void,
        reject,
        done: false,
        timer: setTimeout(() => this.timeOut(job), this.options.timeoutMs),
      };
      this.queue.push(job);
      this.pump();
    });
  }

  stats(): WorkerPoolStats {
    let busy = 0;
    for (const job of this.workers.values()) if (job) busy++;
    return { size: this.options.size, live: this.workers.size, busy, queued: this.queue.length, replaced: this.replaced };
  }

  /** Fails the queued and running jobs ("closed") and terminates every worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, new WorkerPoolError("closed", "the worker pool is closed"));
    const workers = [...this.workers.keys()];
    for (const [worker, job] of this.workers) {
      if (job) this.settle(job, new WorkerPoolError("closed", "the worker pool is closed"));
      this.workers.set(worker, undefined);
    }
    this.workers.clear();
    await Promise.all(workers.map((w) => w.terminate().catch(() => {})));
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      let worker: Worker | undefined;
      for (const [w, job] of this.workers) {
        if (!job) {
          worker = w;
          break;
        }
      }
      if (!worker && this.workers.size < this.options.size) worker = this.spawn();
      if (!worker) return;
      const job = this.queue.shift() as Job;
      job.worker = worker;
      this.workers.set(worker, job);
      worker.ref();
      worker.postMessage({ id: job.id, input: job.input });
    }
  }

  private spawn(): Worker {
    const { script, resourceLimits, workerData } = this.options;
    // execArgv []: the worker script needs no loader, so the parent's `--import tsx` is not repeated in every worker.
    const worker = new Worker(script, { eval: this.options.eval ?? false, resourceLimits, workerData, execArgv: [] });
    this.workers.set(worker, undefined);
    worker.on("message", (message: { id: number; result?: unknown; error?: string; retire?: boolean }) => {
      const job = this.workers.get(worker);
      if (!job || job.id !== message.id) return;
      if (message.retire) {
        this.workers.delete(worker);
        this.replaced++;
        void worker.terminate().catch(() => {});
      } else {
        this.workers.set(worker, undefined);
        worker.unref();
      }
      if (message.error !== undefined) this.settle(job, new WorkerJobError(message.error));
      else this.settle(job, undefined, message.result);
      this.pump();
    });
    // An uncaught exception or ERR_WORKER_OUT_OF_MEMORY; "exit" follows.
    worker.on("error", (error) => this.lose(worker, new WorkerPoolError("crashed", `worker failed: ${error.message}`, { cause: error })));
    worker.on("exit", (code) => this.lose(worker, new WorkerPoolError("crashed", `worker exited with code ${code}`)));
    return worker;
  }

  /** The worker is gone (crashed, exited, or terminated by us): its job fails, a later job starts a replacement. */
  private lose(worker: Worker, error: WorkerPoolError): void {
    if (!this.workers.has(worker)) return;
    const job = this.workers.get(worker);
    this.workers.delete(worker);
    this.replaced++;
    if (job) this.settle(job, error);
    this.pump();
  }

  private timeOut(job: Job): void {
    if (job.done) return;
    const error = new WorkerPoolError("timeout", `the job did not finish within ${this.options.timeoutMs} ms`);
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, error);
      return;
    }
    const worker = job.worker;
    this.settle(job, error);
    if (worker && this.workers.get(worker) === job) {
      // The job runs synchronously inside the worker: terminating is the only way to stop it. The slot frees now.
      this.workers.delete(worker);
      this.replaced++;
      void worker.terminate().catch(() => {});
      this.pump();
    }
  }

  private settle(job: Job, error: Error | undefined, result?: unknown): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    if (error) job.reject(error);
    else job.resolve(result);
  }
}
