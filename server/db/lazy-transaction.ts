// A transaction sends BEGIN only when it needs one. Every round trip to PostgreSQL costs ≈0.1 ms of CPU on the server
// (pg's protocol handling and a socket write) besides the database's own work, and a unit of work whose only write is
// its closing statement (server/db/unit-of-work/run-unit.ts) needs no BEGIN and COMMIT around that one statement: a single
// statement is atomic on its own.
//
// The rule, on each connection in a Kysely transaction:
//   - Plain reads before the first write run without BEGIN. Under READ COMMITTED (the only isolation level the request
//     paths use) every statement takes its own snapshot, inside a transaction or not, so a read before the first write
//     sees exactly what it would have seen after a BEGIN. A read that takes locks (FOR UPDATE/SHARE), a statement with a
//     CTE, a raw SQL fragment or anything calling a lock or sequence function is not a plain read.
//   - The first statement that is not a plain read sends BEGIN first, and everything after it runs in the transaction.
//   - A statement marked final (markFinal: the unit of work's closing statement) that comes before any BEGIN runs on its
//     own, atomically; the transaction's COMMIT or ROLLBACK is then nothing to send. No statement may follow it.
//   - A transaction with an isolation level or access mode of its own begins at once, as before.
// The statement counter sits below this wrapper, so it counts the BEGIN and COMMIT actually sent.
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type OperationNode,
  type QueryResult,
  SelectQueryNode,
  type TransactionSettings,
} from "kysely";
import { ConnectionWrappers, type MappedCheckout, SETTLED } from "./connection-wrappers.ts";

const FINAL = new WeakSet<CompiledQuery>();

/** Marks `query` as the last statement of its transaction (see above); returns it. */
export function markFinal<Q extends CompiledQuery>(query: Q): Q {
  FINAL.add(query);
  return query;
}

// Functions whose effect outlives the statement (locks held to the end of the transaction, sequences, notifications).
const EFFECTFUL_FUNCTIONS = /\b(pg_(try_)?advisory_\w+|nextval|setval|pg_notify|set_config)\s*\(/i;

/** A SELECT that neither locks nor writes: it may run before BEGIN with the same result. */
export function isPlainRead(query: CompiledQuery): boolean {
  const node: OperationNode = query.query;
  if (!SelectQueryNode.is(node)) return false;
  if (node.with || (node.endModifiers?.length ?? 0) > 0) return false;
  return !EFFECTFUL_FUNCTIONS.test(query.sql);
}

type State = "outside" | "pending" | "begun" | "finished";

class LazyConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  private readonly driver: Driver;
  state: State = "outside";
  settings: TransactionSettings = {};

  constructor(inner: DatabaseConnection, driver: Driver) {
    this.inner = inner;
    this.driver = driver;
  }

  // Not an async function: a statement that needs no BEGIN (most of them) is handed on as the driver's own promise.
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.state === "finished") {
      return Promise.reject(new Error("A statement followed the final statement of a transaction that ran without BEGIN"));
    }
    if (this.state === "pending") {
      if (FINAL.has(query)) this.state = "finished";
      else if (!isPlainRead(query)) {
        return this.driver.beginTransaction(this.inner, this.settings).then(() => {
          this.state = "begun";
          return this.inner.executeQuery<R>(query);
        });
      }
    }
    return this.inner.executeQuery(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.state === "pending" || this.state === "finished") {
      throw new Error("Streaming queries are not supported inside a transaction that has not begun");
    }
    return this.inner.streamQuery(query, chunkSize);
  }
}

class LazyTransactionDriver implements Driver, MappedCheckout {
  private readonly inner: Driver;
  /** One wrapper per driver connection (connection-wrappers.ts), reset on each checkout: a connection has one holder
   * at a time. */
  private readonly wrappers: ConnectionWrappers<LazyConnection>;

  constructor(inner: Driver) {
    this.inner = inner;
    this.wrappers = new ConnectionWrappers(
      (connection) => new LazyConnection(connection, inner),
      (lazy) => {
        lazy.state = "outside";
        lazy.settings = {};
      },
    );
  }
  init() {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.wrappers.acquire(this.inner);
  }
  acquireMapped<T>(map: (connection: DatabaseConnection) => T): Promise<T> {
    return this.wrappers.acquireThrough(this.inner, map);
  }
  // Not async functions: the usual transaction sends neither BEGIN here nor a COMMIT or ROLLBACK when it never began,
  // and hands back the one settled promise (no promise made) for each.
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const lazy = connection as LazyConnection;
    lazy.settings = settings;
    if (settings.isolationLevel || settings.accessMode) {
      return this.inner.beginTransaction(lazy.inner, settings).then(() => {
        lazy.state = "begun";
      });
    }
    lazy.state = "pending";
    return SETTLED;
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lazy = connection as LazyConnection;
    const begun = lazy.state === "begun";
    lazy.state = "outside";
    return begun ? this.inner.commitTransaction(lazy.inner) : SETTLED;
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lazy = connection as LazyConnection;
    const begun = lazy.state === "begun";
    lazy.state = "outside";
    return begun ? this.inner.rollbackTransaction(lazy.inner) : SETTLED;
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lazy = connection as LazyConnection;
    lazy.state = "outside";
    return this.inner.releaseConnection(lazy.inner);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** Wraps a dialect so its transactions begin lazily (see the top of this file). */
export function lazyTransactions(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new LazyTransactionDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
