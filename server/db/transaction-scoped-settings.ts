// Behind a transaction-mode pooler (PgBouncer, RDS Proxy, …) a client holds a server connection for one transaction
// only, so session state does not follow it: a `SET` would stay on whichever server connection ran it, and PgBouncer
// refuses the `statement_timeout` / `idle_in_transaction_session_timeout` startup parameters the direct pool sends. The
// bounds are therefore set per transaction, in the BEGIN itself (`SET LOCAL`, one round trip as before): they end with
// the transaction and never leak to another client's. A statement outside a transaction keeps the client-side
// `query_timeout` and the pooler's own `query_timeout` (README "Operations", "Behind a connection pooler").
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type RawBuilder, sql, type TransactionSettings } from "kysely";
import { acquireMapped, type MappedCheckout } from "./connection-wrappers.ts";

/** Texts sent as one simple query (several statements): never given a prepared-statement name (open-database.ts). */
export const SIMPLE_QUERY_TEXTS = new Set<string>();

export interface TransactionTimeouts {
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/** `BEGIN` followed by the bounds of this transaction, as one text. */
export function beginWithTimeouts(timeouts: TransactionTimeouts): string {
  const text =
    `BEGIN; SET LOCAL statement_timeout = ${Math.trunc(timeouts.statementTimeoutMs)}; ` +
    `SET LOCAL idle_in_transaction_session_timeout = ${Math.trunc(timeouts.idleInTransactionTimeoutMs)}`;
  SIMPLE_QUERY_TEXTS.add(text);
  return text;
}

class TransactionScopedSettingsDriver implements Driver, MappedCheckout {
  private readonly inner: Driver;
  private readonly begin: string;

  constructor(inner: Driver, begin: string) {
    this.inner = inner;
    this.begin = begin;
  }
  init() {
    return this.inner.init();
  }
  acquireConnection() {
    return this.inner.acquireConnection();
  }
  acquireMapped<T>(map: (connection: DatabaseConnection) => T): Promise<T> {
    return acquireMapped(this.inner, map);
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // An isolation level or access mode of its own: Kysely's BEGIN, then the bounds (rare: no request path sets one).
    if (settings.isolationLevel || settings.accessMode) {
      await this.inner.beginTransaction(connection, settings);
      await connection.executeQuery(CompiledQuery.raw(this.begin.replace(/^BEGIN; /, "")));
      return;
    }
    await connection.executeQuery(CompiledQuery.raw(this.begin));
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** `dialect` whose transactions carry `timeouts` as SET LOCAL in their BEGIN. */
export function transactionScopedSettings(dialect: Dialect, timeouts: TransactionTimeouts): Dialect {
  const begin = beginWithTimeouts(timeouts);
  for (const text of [begin.replace(/^BEGIN; /, "")]) SIMPLE_QUERY_TEXTS.add(text);
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TransactionScopedSettingsDriver(dialect.createDriver(), begin),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** One statement setting `settings` for the rest of the current transaction (a bound of its own inside a transaction,
 * e.g. a retention batch's, server/db/purge-in-batches.ts). `set_config(name, value, true)` is `SET LOCAL` as a
 * function: the same transaction-scoped setting, so it too ends with the transaction and is safe behind a
 * transaction-mode pooler, but as one parameterised SELECT it is prepared once per connection, and PGlite (whose
 * `query()` takes one statement) runs it too, where `SET LOCAL a; SET LOCAL b` needs the simple protocol. */
export function setLocal(settings: Record<string, string | number>): RawBuilder<unknown> {
  const calls = Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${String(value)}, true)`);
  return sql`SELECT ${sql.join(calls)}`;
}
