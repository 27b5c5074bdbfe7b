// The request path's Kysely driver over the pg pool. It does what Kysely's PostgresDriver does (a connection object
// per pooled client, BEGIN/COMMIT/ROLLBACK, a COMMIT answered ROLLBACK refused, a connection whose ROLLBACK failed
// discarded at release; no savepoints, which the request path's driver chain never offered), with fewer promises: Kysely's driver awaits pg-pool's promise checkout (which pg-pool makes
// of its callback with a promise and a `catch`) in an async function, and each statement's pg promise in another, and
// releases in a third. Here a checkout is pg-pool's callback in one promise, a statement pg's callback in one promise,
// and a release none: 8 promises fewer per statement sent alone (`npm run bench:async`; docs/performance.md). The
// pool-wait histogram's observation of each checkout happens here too (open-database.ts times the pool's other,
// promise-style checkouts: Prisma's).
import { AbortedTransactionError, CompiledQuery, type DatabaseConnection, type Driver, PostgresDialect, type QueryResult } from "kysely";
import type pg from "pg";
import type { BoundedClient, StatementCallback } from "./bounded-client.ts";
import { type MappedCheckout, SETTLED, unmapped } from "./connection-wrappers.ts";

const BEGIN = CompiledQuery.raw("begin");
const COMMIT = CompiledQuery.raw("commit");
const ROLLBACK = CompiledQuery.raw("rollback");

/** Kysely's result for pg's, as Kysely's PostgresConnection makes it (a multi-statement text's array has no command). */
function queryResult<R>(result: pg.QueryResult | pg.QueryResult[] | undefined): QueryResult<R> {
  const { command, rowCount, rows } = (result ?? {}) as Partial<pg.QueryResult>;
  if (command === "ROLLBACK" || command === "COMMIT") return { rows: [{ command }] as R[] };
  return {
    numAffectedRows:
      command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE" ? BigInt(rowCount ?? 0) : undefined,
    rows: (rows ?? []) as R[],
  };
}

class PgPoolConnection implements DatabaseConnection {
  readonly client: BoundedClient;
  /** Its ROLLBACK failed: the pool destroys the client at release instead of handing it out again. */
  discarded = false;

  constructor(client: BoundedClient) {
    this.client = client;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.discarded) return Promise.reject(new Error("Postgres connection has been discarded"));
    return new Promise((resolve, reject) => {
      const answered: StatementCallback = (error, result) => (error ? reject(error) : resolve(queryResult<R>(result)));
      this.client.send(query.sql, query.parameters.slice(), answered);
    });
  }

  // biome-ignore lint/correctness/useYield: refuses at once, as Kysely's driver does without a cursor in its config
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("'cursor' is not present in your postgres dialect config. It's required to make streaming work in postgres.");
  }
}

const nothing = (): void => {};

export class PgPoolDriver implements Driver, MappedCheckout {
  readonly #pool: pg.Pool;
  readonly #onWait: ((seconds: number) => void) | undefined;
  readonly #connections = new WeakMap<pg.PoolClient, PgPoolConnection>();

  constructor(pool: pg.Pool, onWait?: (seconds: number) => void) {
    this.#pool = pool;
    this.#onWait = onWait;
  }

  init(): Promise<void> {
    return SETTLED;
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.acquireMapped(unmapped);
  }

  /** The checkout, handed through `map` (the wrapper drivers' wrapping: connection-wrappers.ts) in the same promise. */
  acquireMapped<T>(map: (connection: DatabaseConnection) => T): Promise<T> {
    const started = this.#onWait ? performance.now() : 0;
    return new Promise((resolve, reject) => {
      this.#pool.connect((error, client) => {
        if (error || !client) {
          reject(error ?? new Error("The pool handed out no connection"));
          return;
        }
        this.#onWait?.((performance.now() - started) / 1000);
        let connection = this.#connections.get(client);
        if (!connection) {
          connection = new PgPoolConnection(client as unknown as BoundedClient);
          this.#connections.set(client, connection);
        }
        try {
          resolve(map(connection));
        } catch (mapFailed) {
          client.release();
          reject(mapFailed);
        }
      });
    });
  }

  beginTransaction(connection: DatabaseConnection, settings: Parameters<Driver["beginTransaction"]>[1]): Promise<void> {
    if (!settings.isolationLevel && !settings.accessMode) return connection.executeQuery(BEGIN).then(nothing);
    let text = "start transaction";
    if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) text += ` ${settings.accessMode}`;
    return connection.executeQuery(CompiledQuery.raw(text)).then(nothing);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return connection.executeQuery<{ command?: string }>(COMMIT).then(({ rows }) => {
      // PostgreSQL completes COMMIT with a ROLLBACK tag if an earlier statement error left the transaction aborted.
      if (rows[0]?.command === "ROLLBACK") throw new AbortedTransactionError();
    });
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return connection.executeQuery(ROLLBACK).then(nothing, (error: unknown) => {
      (connection as PgPoolConnection).discarded = true;
      throw error;
    });
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const { client, discarded } = connection as PgPoolConnection;
    (client as unknown as pg.PoolClient).release(discarded);
    return SETTLED;
  }

  destroy(): Promise<void> {
    return this.#pool.end();
  }
}

/** Kysely's PostgreSQL dialect (its compiler, adapter, introspector) with the driver above. */
export class PgPoolDialect extends PostgresDialect {
  readonly #pool: pg.Pool;
  readonly #onWait: ((seconds: number) => void) | undefined;

  constructor(pool: pg.Pool, onWait?: (seconds: number) => void) {
    super({ pool });
    this.#pool = pool;
    this.#onWait = onWait;
  }

  override createDriver(): Driver {
    return new PgPoolDriver(this.#pool, this.#onWait);
  }
}
