// Counts what reaches the database driver: statements (data round trips) and transaction control (BEGIN, COMMIT,
// ROLLBACK) apart. The statement-budget tests (test/db/statement-budget.test.ts) read it around one request, so a hot
// path that grows by one statement fails a test instead of a benchmark weeks later.
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from "kysely";
import { ConnectionWrappers, type MappedCheckout } from "./connection-wrappers.ts";

export class StatementCounter {
  statements = 0;
  transactionControl = 0;
  transactions = 0;

  snapshot(): { statements: number; transactionControl: number; transactions: number } {
    return { statements: this.statements, transactionControl: this.transactionControl, transactions: this.transactions };
  }
}

class CountingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  private readonly counter: StatementCounter;

  constructor(inner: DatabaseConnection, counter: StatementCounter) {
    this.inner = inner;
    this.counter = counter;
  }
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.counter.statements++;
    return this.inner.executeQuery(query);
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.counter.statements++;
    return this.inner.streamQuery(query, chunkSize);
  }
}

class CountingDriver implements Driver, MappedCheckout {
  private readonly inner: Driver;
  private readonly counter: StatementCounter;
  /** One wrapper per driver connection (connection-wrappers.ts). */
  private readonly wrappers: ConnectionWrappers<CountingConnection>;

  constructor(inner: Driver, counter: StatementCounter) {
    this.inner = inner;
    this.counter = counter;
    this.wrappers = new ConnectionWrappers((connection) => new CountingConnection(connection, counter));
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
  // Transaction control goes to the driver on the unwrapped connection and is counted here, once per round trip.
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    this.counter.transactions++;
    this.counter.transactionControl++;
    return this.inner.beginTransaction((connection as CountingConnection).inner, settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.counter.transactionControl++;
    return this.inner.commitTransaction((connection as CountingConnection).inner);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.counter.transactionControl++;
    return this.inner.rollbackTransaction((connection as CountingConnection).inner);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as CountingConnection).inner);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** Wraps a dialect so every statement its driver sends is counted. */
export function countingDialect(dialect: Dialect, counter: StatementCounter): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new CountingDriver(dialect.createDriver(), counter),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
