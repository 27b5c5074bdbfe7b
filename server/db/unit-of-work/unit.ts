// The unit itself: the open transaction of one write plus the rows it writes at commit, and the closing statement
// that writes them (server/db/closing-statement.ts). How a request runs it: server/db/unit-of-work/run-unit.ts.
import type { Insertable, Kysely } from "kysely";
import {
  builtWrite,
  type ClosingWrite,
  closingStatement,
  type DeferredWrite,
  GUARD_FAILED,
  insertWrite,
  templateWrite,
} from "../closing-statement.ts";
import type { DB, Tx } from "../kysely.ts";
import type { PrecompiledQuery } from "../precompiled-query.ts";

type TableName = keyof DB & string;
interface Deferred {
  write: ClosingWrite;
  keepOnError: boolean;
}

/** The open transaction of one request plus the rows it writes at commit. */
export class UnitOfWork {
  /** The transaction: run reads and the writes whose results you need on it. */
  readonly tx: Tx;
  /** One clock for the whole request. */
  readonly now: Date;
  private deferred: Deferred[] = [];

  constructor(tx: Tx, now: Date) {
    this.tx = tx;
    this.now = now;
  }

  /** Inserts `row` at commit, in the closing statement (for rows nothing in this request reads back). */
  insertLater<T extends TableName>(table: T, row: Insertable<DB[T]> | Insertable<DB[T]>[], options: { keepOnError?: boolean } = {}): void {
    this.defer(insertWrite(table, row), options);
  }

  /** Runs a write at commit, in the closing statement. Use for writes whose result this request does not read. */
  deferLater(write: DeferredWrite, options: { keepOnError?: boolean } = {}): void {
    this.defer(builtWrite(write), options);
  }

  /** Runs a precompiled write (server/db/precompiled-query.ts) with these values at commit: the cheapest kind for a
   * write every request of a hot path makes (it is not built by Kysely per request). */
  deferPrecompiled<P extends Record<string, unknown>>(
    template: PrecompiledQuery<P, unknown>,
    values: P,
    options: { keepOnError?: boolean } = {},
  ): void {
    this.defer(templateWrite(template, values), options);
  }

  /** @internal a write of the closing statement */
  defer(write: ClosingWrite, options: { keepOnError?: boolean } = {}): void {
    this.deferred.push({ write, keepOnError: options.keepOnError ?? false });
  }

  /** The same unit of work on another clock: what the view defers goes to this one's closing statement. For a job
   * that dates what it records by when a step finished, not when the job began (server/scheduler/advance-run.ts). */
  at(now: Date): UnitOfWork {
    const view = new UnitOfWork(this.tx, now);
    view.deferred = this.deferred;
    return view;
  }

  /** @internal the deferred writes, taken once (emptied in place: a view made by `at` shares the list) */
  takeDeferred(onlyKeptOnError = false): ClosingWrite[] {
    return this.deferred
      .splice(0)
      .filter((d) => !onlyKeptOnError || d.keepOnError)
      .map((d) => d.write);
  }
}

/** The closing statement's guard found no row to write the key's record to (see flush). */
export class GuardFailed extends Error {}

/** Runs the closing statement (server/db/closing-statement.ts); a failed guard is GuardFailed. */
export async function flush(
  db: Kysely<DB>,
  writes: ClosingWrite[],
  options: { guard?: ClosingWrite; final?: boolean } = {},
): Promise<void> {
  const statement = closingStatement(db, writes, options);
  if (!statement) return;
  try {
    await db.executeQuery(statement);
  } catch (error) {
    if (options.guard && (error as { code?: unknown }).code === GUARD_FAILED) throw new GuardFailed();
    throw error;
  }
}

/** The deferred writes of a unit of work that is not a request's (the workflow dispatcher's transaction, the approval
 * expiry sweeper's), in one statement, before its transaction commits. */
export async function flushDeferred(uow: UnitOfWork): Promise<void> {
  await flush(uow.tx, uow.takeDeferred());
}
