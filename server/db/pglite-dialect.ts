// A Kysely dialect over the open PGlite instance (no maintained dialect supports PGlite 0.5 and the Prisma adapter
// sharing one instance). PGlite has one session: its own `transaction()` holds the instance exclusively, and statements
// outside it wait. So a Kysely transaction parks inside `pglite.transaction()` until Kysely commits or rolls back, and
// every other statement (Kysely's or the operator paths' Prisma adapter's) queues behind it instead of joining it.
import { type PGlite, type Transaction as PGliteTransaction, types } from "@electric-sql/pglite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import { type MappedCheckout, unmapped } from "./connection-wrappers.ts";

type Queryable = Pick<PGlite, "query"> | PGliteTransaction;

// int8 as a string, like pg (PGlite would give a JavaScript number); numeric is already a string on both drivers.
const PARSERS = { [types.INT8]: (value: string) => value };

class PGliteConnection implements DatabaseConnection {
  private readonly pglite: PGlite;
  private transaction: { tx: PGliteTransaction; release: (rollback: boolean) => Promise<void>; done: Promise<void> } | undefined;

  constructor(pglite: PGlite) {
    this.pglite = pglite;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const target: Queryable = this.transaction?.tx ?? this.pglite;
    const result = await target.query<R>(query.sql, query.parameters as unknown[], { parsers: PARSERS });
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: nothing streams on the request paths; PGlite has no cursor API here
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite dialect: streaming queries are not supported");
  }

  /** Opens a PGlite transaction and holds it open until `end` is called. */
  async begin(): Promise<void> {
    await new Promise<void>((started, failedToStart) => {
      const done = this.pglite.transaction(
        (tx) =>
          new Promise<void>((release) => {
            this.transaction = {
              tx,
              done,
              release: async (rollback) => {
                if (rollback) await tx.rollback();
                release();
              },
            };
            started();
          }),
      );
      done.catch(failedToStart);
    });
  }

  /** In the driver's idle list (so a second release cannot put it there twice and hand it to two holders). */
  parked = false;

  /** No transaction is held open: the connection may be handed to the next holder. */
  get settled(): boolean {
    return this.transaction === undefined;
  }

  /** Commits (PGlite commits when the callback returns) or rolls back; a failed COMMIT rejects here. */
  async end(rollback: boolean): Promise<void> {
    const open = this.transaction;
    this.transaction = undefined;
    if (!open) return;
    await open.release(rollback);
    await open.done;
  }
}

/** Released connections kept for the next checkouts; past this, a released one is left to the garbage collector. */
const IDLE_CONNECTIONS = 64;

class PGliteDriver implements Driver, MappedCheckout {
  private readonly pglite: PGlite;
  // A connection object is only a holder of its transaction (PGlite has one session), so released ones are handed out
  // again: the request path's driver wrappers keep one wrapper per connection object (lazy-transaction.ts,
  // statement-counter.ts), and a new object per checkout would make them allocate and register one every statement.
  private readonly idle: PGliteConnection[] = [];

  constructor(pglite: PGlite) {
    this.pglite = pglite;
  }
  async init(): Promise<void> {}
  acquireConnection(): Promise<DatabaseConnection> {
    return this.acquireMapped(unmapped);
  }
  /** The checkout handed through `map` (the wrapper drivers' wrapping: connection-wrappers.ts) in one promise. */
  acquireMapped<T>(map: (connection: DatabaseConnection) => T): Promise<T> {
    try {
      return Promise.resolve(map(this.checkout()));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  private checkout(): PGliteConnection {
    const reused = this.idle.pop();
    if (!reused) return new PGliteConnection(this.pglite);
    reused.parked = false;
    return reused;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).begin();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).end(false);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).end(true);
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const released = connection as PGliteConnection;
    // Never kept twice (a second release would hand one holder's transaction to two), nor with a transaction open.
    if (released.parked || !released.settled || this.idle.length >= IDLE_CONNECTIONS) return;
    released.parked = true;
    this.idle.push(released);
  }
  async destroy(): Promise<void> {}
}

export class PGliteDialect implements Dialect {
  private readonly pglite: PGlite;

  constructor(pglite: PGlite) {
    this.pglite = pglite;
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Parameters<Dialect["createIntrospector"]>[0]) {
    return new PostgresIntrospector(db);
  }
}
