// Statements past Kysely's executor. Kysely's query builder and compiler stay; what this replaces is how a compiled
// statement reaches the driver. Kysely's executor sends each one through five async layers (executeQuery, the
// connection provider, its runtime driver's checkout and release, the result plugins) and a transaction's statements
// through a provider that chains each on the one before: ≈19 promises per statement and ≈11 more per transaction, the
// largest share of a request's promises that is not a contract step (docs/performance.md, "Who makes the promises").
// Here a statement alone is a checkout, the statement and the release (3 promises); a statement in a transaction is
// the statement and one settle callback; a transaction is its checkout, BEGIN, the work, COMMIT and the release.
//
// What stays the same, and is relied on:
//   - the driver chain (lazy BEGIN, the statement counter, the rollback that keeps its cause: open-database.ts) sees
//     the same calls in the same order: checkout, begin, statements one at a time, commit or rollback, release;
//   - a transaction's statements run one at a time even when sent together (the lazy BEGIN decides by their order);
//   - a statement sent after its transaction ended is refused, as Kysely refuses it;
//   - one adapter object for the database and its transactions (the read cache is found by it: cached-read.ts);
//   - a query with a plugin (withPlugin, withSchema) runs through Kysely's own executor, correct and slower.
import {
  type CompiledQuery,
  type ConnectionProvider,
  type DatabaseConnection,
  DefaultConnectionProvider,
  DefaultQueryExecutor,
  type Dialect,
  type DialectAdapter,
  type Driver,
  Kysely,
  type KyselyConfig,
  type QueryCompiler,
  type QueryResult,
  Transaction,
} from "kysely";
import type { DB, Tx } from "./kysely.ts";

type RunStatement = <R>(query: CompiledQuery) => Promise<QueryResult<R>>;

/** Kysely's executor, with the statement handed straight to `run` (no plugins: a plugin's executor is Kysely's own). */
class DirectExecutor extends DefaultQueryExecutor {
  readonly #run: RunStatement;

  constructor(compiler: QueryCompiler, adapter: DialectAdapter, provider: ConnectionProvider, run: RunStatement) {
    super(compiler, adapter, provider);
    this.#run = run;
  }

  override executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#run<R>(query);
  }
}

/** One transaction's connection: its statements one at a time, none after the transaction ended. */
class TransactionConnection implements ConnectionProvider {
  readonly #connection: DatabaseConnection;
  /** The last statement sent, settled either way; undefined once it settled (the usual case: nothing to wait for). */
  #last: Promise<void> | undefined;
  #ended = false;

  constructor(connection: DatabaseConnection) {
    this.#connection = connection;
  }

  /** Sends `query` in its turn (one closure per statement, no promise of its own beyond the settle callback). */
  readonly run: RunStatement = <R>(query: CompiledQuery) => this.provideConnection((connection) => connection.executeQuery<R>(query));

  /** Also how a query with a plugin goes (Kysely's own executor calls it): the same turn. */
  provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    if (this.#ended) return Promise.reject(new Error("A statement was sent after its transaction had ended"));
    const sent = this.#last ? this.#last.then(() => consumer(this.#connection)) : consumer(this.#connection);
    const settled: Promise<void> = sent.then(
      () => this.#settled(settled),
      () => this.#settled(settled),
    );
    this.#last = settled;
    return sent;
  }

  #settled(settled: Promise<void>): void {
    if (this.#last === settled) this.#last = undefined;
  }

  end(): void {
    this.#ended = true;
  }
}

interface Parts {
  config: KyselyConfig;
  dialect: Dialect;
  driver: Driver;
  compiler: QueryCompiler;
  adapter: DialectAdapter;
}
const PARTS = new WeakMap<Kysely<DB>, Parts>();

/** The request path's Kysely over `dialect`: its statements and transactions past Kysely's executor (see above). */
export async function directKysely(dialect: Dialect): Promise<Kysely<DB>> {
  const driver = dialect.createDriver();
  // Kysely's runtime driver would do this at the first checkout; this Kysely has none.
  await driver.init();
  const compiler = dialect.createQueryCompiler();
  const adapter = dialect.createAdapter();
  const alone: RunStatement = <R>(query: CompiledQuery) =>
    driver.acquireConnection().then((connection) => connection.executeQuery<R>(query).finally(() => driver.releaseConnection(connection)));
  const executor = new DirectExecutor(compiler, adapter, new DefaultConnectionProvider(driver), alone);
  const config: KyselyConfig = { dialect };
  const db = new Kysely<DB>({ config, dialect, driver, executor });
  PARTS.set(db, { config, dialect, driver, compiler, adapter });
  return db;
}

/**
 * Runs `work` in a transaction on `db`, as `db.transaction().execute(work)` does: BEGIN (lazily: lazy-transaction.ts),
 * the work, COMMIT; a work or a COMMIT that throws rolls back and the error propagates; the connection goes back either
 * way. Past Kysely's executor on a database made by directKysely, through Kysely on any other (a test's own Kysely).
 */
export async function inTransaction<T>(db: Kysely<DB>, work: (tx: Tx) => Promise<T>): Promise<T> {
  const parts = PARTS.get(db);
  if (!parts) return db.transaction().execute(work);
  const { config, driver, dialect, compiler, adapter } = parts;
  const connection = await driver.acquireConnection();
  const statements = new TransactionConnection(connection);
  const tx = new Transaction<DB>({
    config,
    dialect,
    driver,
    executor: new DirectExecutor(compiler, adapter, statements, statements.run),
  });
  let begun = false;
  try {
    await driver.beginTransaction(connection, {});
    begun = true;
    const result = await work(tx);
    await driver.commitTransaction(connection);
    return result;
  } catch (error) {
    if (begun) await driver.rollbackTransaction(connection);
    throw error;
  } finally {
    statements.end();
    await driver.releaseConnection(connection);
  }
}
