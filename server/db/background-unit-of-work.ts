// The unit of work of a job that is not a request (the workflow dispatcher, the approval expiry sweeper, the webhook
// delivery worker's final failure, the first owner's invitation): one transaction, the work on it, and the rows it
// deferred (events, activity) written in one closing statement before the commit — the same shape as a request's
// runUnitOfWork (server/db/unit-of-work.ts) without an idempotency key or a stored answer. A job is its own retry: it
// runs again on its next tick, so a failure rolls everything back and reaches the caller unchanged (the dispatcher
// records it as a failed attempt; the sweeper and the delivery worker log it and try again).

import { inTransaction } from "./direct-statements.ts";
import type { Queryable } from "./kysely.ts";
import { flushDeferred, UnitOfWork } from "./unit-of-work/index.ts";

/** Runs `work` in a transaction of its own with a unit of work at `now`, and writes its deferred rows before commit. */
export function runBackgroundUnitOfWork<T>(db: Queryable, now: Date, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    const uow = new UnitOfWork(tx, now);
    const result = await work(uow);
    await flushDeferred(uow);
    return result;
  });
}
