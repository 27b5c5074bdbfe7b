// Counts requests the process is still working on, so graceful shutdown closes the database only after the last one.
// A closed socket is not enough: a client that gave up leaves its handler running (and holding a pool connection),
// and `server.close()` fires as soon as the sockets are gone — closing the pool under that handler used to make
// `pool.end()` wait forever for the connection it held.
import type { RequestHandler } from "express";

export class InFlightRequests {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  enter(): void {
    this.count++;
  }

  leave(): void {
    this.count--;
    if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once nothing is in flight. */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Counts a request from its first middleware until something calls `res.end()`: every path through the chain
   * ends there (handler, replay, error handler, after its idempotency bookkeeping), also when the client has gone. */
  middleware(): RequestHandler {
    return (_req, res, next) => {
      this.enter();
      const leave = () => this.leave();
      let left = false;
      const end = res.end;
      res.end = function endAndLeave(this: typeof res, ...args: unknown[]) {
        if (!left) {
          left = true;
          leave();
        }
        return (end as (...a: unknown[]) => typeof res).apply(this, args);
      } as typeof res.end;
      next();
    };
  }

  /** Counts a piece of request work (the handler) until it settles, even when its client has gone. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.enter();
    try {
      return await work();
    } finally {
      this.leave();
    }
  }
}
