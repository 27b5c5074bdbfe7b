// Opens the database named by DATABASE_URL, applies migrations, and returns the typed query layer (Kysely) for request
// paths and a Prisma client over the same driver for operator paths (admin API, scripts), both on one driver.
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { Dialect, Kysely } from "kysely";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";
import { BoundedClient, UnpreparedClient } from "./bounded-client.ts";
import { attachReadCache, ReadCache } from "./cached-read.ts";
import { type ChangeFeed, type ChangeFeedTiming, PgliteChangeFeed, PostgresChangeFeed } from "./change-feed.ts";
import { ClaimReleases } from "./claim-releases.ts";
import { type DatabaseTarget, parseDatabaseUrl } from "./database-url.ts";
import { directKysely } from "./direct-statements.ts";
import type { DB } from "./kysely.ts";
import { lazyTransactions } from "./lazy-transaction.ts";
import { applyMigrations, type MigrationStatus, MigrationsPending, migrationStatus, readMigrations } from "./migrate.ts";
import { PgPoolDialect } from "./pg-pool-driver.ts";
import { PGliteDialect } from "./pglite-dialect.ts";
import { lockPgliteFolder } from "./pglite-folder-lock.ts";
import { findPgliteTemplate, isFreshPgliteFolder } from "./pglite-template.ts";
import { rollbackKeepsCause } from "./rollback-keeps-cause.ts";
import { pgliteRunner, pgPoolRunner, type SqlRunner } from "./sql-runner.ts";
import { countingDialect, StatementCounter } from "./statement-counter.ts";
import { transactionScopedSettings } from "./transaction-scoped-settings.ts";
import { KeysToReadFirst } from "./unit-of-work/index.ts";

export type Db = PrismaClient;

export interface Database {
  /** Request paths: typed queries on the driver (server/db/kysely.ts). */
  kysely: Kysely<DB>;
  /** Every statement `kysely` sent (the statement-budget tests read it). */
  statements: StatementCounter;
  /** Operator changes to the rows request paths cache (server/db/change-feed.ts): an operator write awaits
   * `changes.barrier()` before it answers, so every instance acts on it from the next request on. */
  changes: ChangeFeed;
  /** The cached copies of those rows (server/db/cached-read.ts); its hit and miss counts are for tests. */
  readCache: ReadCache;
  /** The Idempotency-Key claims requests of this instance could not release when they ended (the database did not
   * answer), released once it answers again (server/db/claim-releases.ts); closing tries them once more. */
  claimReleases: ClaimReleases;
  /** The Idempotency-Keys whose check at close did not pay off on this instance (server/db/unit-of-work/
   * keys-to-read-first.ts): their writes read the key first. */
  keysToReadFirst: KeysToReadFirst;
  /** Operator paths only (admin API, scripts, migration runner). */
  prisma: PrismaClient;
  target: DatabaseTarget;
  /** Throws when the database does not answer, or not within `timeoutMs` (default 2000). */
  ping(timeoutMs?: number): Promise<void>;
  /** The PostgreSQL pool's connections now (GET /metrics); undefined on PGlite, which has one in-process connection. */
  poolState(): PoolState | undefined;
  close(): Promise<void>;
}

export interface PoolState {
  max: number;
  open: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

export interface OpenDatabaseOptions {
  url?: string;
  /** Pool size per process for PostgreSQL. */
  poolSize?: number;
  /** Apply pending migrations (default true). With false and `requireMigrated`, refuse a schema behind this code. */
  migrate?: boolean;
  requireMigrated?: boolean;
  /** Bounded time on every PostgreSQL connection (server/config.ts `database`; README "Operations"). */
  timeouts?: Partial<DatabaseTimeouts>;
  /** The change feed's heartbeat, trust and barrier bounds (tests shorten them). */
  changeFeed?: ChangeFeedTiming;
  /** PGlite only: a data-directory dump (`PGlite.dumpDataDir`) to start a new database from instead of running initdb,
   * which costs seconds per database; migrations then apply as usual. The tests start each server from one migrated
   * template (test/global-setup.ts). */
  pgliteTemplate?: Blob;
  /** Called once the migrations are applied: the names this start applied, and whether a PGlite template was loaded. */
  onMigrated?: (applied: string[], fromTemplate: boolean) => void;
  /** PostgreSQL: called with each pool checkout's wait, in seconds (GET /metrics). */
  onPoolWait?: (seconds: number) => void;
  /** PostgreSQL: `url` is a transaction-mode pooler (server/config.ts PoolerConfig; README "Operations"). */
  pooler?: DatabasePooler;
}

export interface DatabasePooler {
  mode: "none" | "transaction";
  /** A session connection past the pooler: the change feed's LISTEN and the migrations. */
  directUrl: string | undefined;
  /** Name and reuse prepared statements per connection (BoundedClient); off behind PgBouncer < 1.21. */
  preparedStatements: boolean;
}

const NO_POOLER: DatabasePooler = { mode: "none", directUrl: undefined, preparedStatements: true };

export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, or for a new one to be established (pg `connectionTimeoutMillis`). */
  connectTimeoutMs: number;
  /** `statement_timeout` of every session: the server cancels a longer statement (SQLSTATE 57014). */
  statementTimeoutMs: number;
  /** `idle_in_transaction_session_timeout`: the server ends a session idle inside a transaction, releasing its locks
   * (an Idempotency-Key's advisory lock included) when its client vanished without the connection closing. */
  idleInTransactionTimeoutMs: number;
  /** pg's client-side `query_timeout`: a statement with no answer (a partition) fails, and its connection is dropped. */
  queryTimeoutMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 10_000,
  idleInTransactionTimeoutMs: 10_000,
  queryTimeoutMs: 12_000,
};

/** Rejects after `ms` whether or not `work` settles (its result is then ignored). */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} did not answer within ${ms} ms`), { code: "ETIMEDOUT" })), ms);
  });
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The driver's dialect as request paths use it: transactions begin lazily (lazy-transaction.ts), below that every
 * statement and the BEGIN/COMMIT actually sent are counted, and a failed rollback keeps the error that caused it. */
function requestPathDialect(driverDialect: Dialect, statements: StatementCounter): Dialect {
  return rollbackKeepsCause(lazyTransactions(countingDialect(driverDialect, statements)));
}

function withReadCache(kysely: Kysely<DB>, changes: ChangeFeed): ReadCache {
  const cache = new ReadCache(changes);
  attachReadCache(kysely, cache);
  return cache;
}

/** Reports how long each promise-style checkout (Prisma's) waited for its connection; the request path's driver, which
 * checks out with a callback, reports its own (pg-pool-driver.ts). */
function timeCheckouts(pool: pg.Pool, report: (seconds: number) => void): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return (connect as (...a: unknown[]) => unknown)(...args);
    const started = performance.now();
    return connect().then((client) => {
      report((performance.now() - started) / 1000);
      return client;
    });
  }) as typeof pool.connect;
}

async function refusePending(runner: SqlRunner): Promise<MigrationStatus> {
  const status = await migrationStatus(runner);
  if (status.pending.length > 0) throw new MigrationsPending(status.pending);
  return status;
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(options.url);
  const migrate = options.migrate ?? true;
  if (target.kind === "pglite") {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    const releaseFolder = target.dataDir ? lockPgliteFolder(target.dataDir) : () => {};
    const migrations = migrate ? await readMigrations() : [];
    // A new folder starts from the build's migrated template when there is one (server/db/pglite-template.ts).
    const template =
      options.pgliteTemplate ??
      (migrate && target.dataDir && isFreshPgliteFolder(target.dataDir) ? findPgliteTemplate(migrations) : undefined);
    const pglite = new PGlite({ dataDir: target.dataDir, loadDataDir: template });
    try {
      await pglite.waitReady;
      if (migrate) {
        // Applied first, reported second: `onMigrated?.(await …)` would skip the migrations when no one listens.
        const applied = await applyMigrations(pgliteRunner(pglite), migrations);
        options.onMigrated?.(applied, Boolean(template));
      } else if (options.requireMigrated) await refusePending(pgliteRunner(pglite));
    } catch (error) {
      releaseFolder();
      throw error;
    }
    return assembleDatabase({
      target,
      // pglite-prisma-adapter 0.6 is typed against an older @prisma/driver-adapter-utils; the runtime interface is the same.
      prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite) as never }),
      changes: new PgliteChangeFeed(pglite),
      dialect: new PGliteDialect(pglite),
      ping: async (timeoutMs) => {
        await within(pglite.query("SELECT 1"), timeoutMs, "PGlite");
      },
      poolState: () => undefined,
      closeDriver: async () => {
        await pglite.close();
        releaseFolder();
      },
    });
  }
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
  const pooler = options.pooler ?? NO_POOLER;
  const behindPooler = pooler.mode === "transaction";
  if (behindPooler && !pooler.directUrl) {
    throw new Error("DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL (the change feed's LISTEN and the migrations need a session)");
  }
  const sessionUrl = behindPooler ? (pooler.directUrl as string) : target.connectionString;
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: options.poolSize ?? 10,
    Client: pooler.preparedStatements ? BoundedClient : UnpreparedClient,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // Session settings as startup parameters on a direct connection; behind a pooler, SET LOCAL in each BEGIN instead
    // (transaction-scoped-settings.ts).
    ...(behindPooler
      ? {}
      : { statement_timeout: timeouts.statementTimeoutMs, idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs }),
    query_timeout: timeouts.queryTimeoutMs,
    // A partition is noticed by the kernel too, not only by the timeouts above.
    keepAlive: true,
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener that would crash the process.
  pool.on("error", () => {});
  // A checked-out client losing its connection emits 'error' on itself (the pool listens only while the client is idle,
  // and Kysely does not listen): without this, a connection cut between two statements of a request crashed the
  // process. The statement in flight (or the next one) fails on its own, and the pool discards the broken client when
  // it is released.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  if (options.onPoolWait) timeCheckouts(pool, options.onPoolWait);
  // Migrations run in one transaction under an advisory lock; behind a pooler they take a session of their own.
  const migrationPool = behindPooler
    ? new pg.Pool({ connectionString: sessionUrl, max: 1, connectionTimeoutMillis: timeouts.connectTimeoutMs })
    : pool;
  migrationPool.on("error", () => {});
  try {
    if (migrate) {
      const applied = await applyMigrations(pgPoolRunner(migrationPool));
      options.onMigrated?.(applied, false);
    } else if (options.requireMigrated) await refusePending(pgPoolRunner(migrationPool));
  } catch (error) {
    await pool.end();
    throw error;
  } finally {
    if (migrationPool !== pool) await migrationPool.end();
  }
  const dialect = new PgPoolDialect(pool, options.onPoolWait);
  return assembleDatabase({
    target,
    prisma: new PrismaClient({ adapter: new PrismaPg(pool) }),
    // LISTEN needs a session: through a transaction pooler a notification reaches whichever client holds the server
    // connection, and the listener would silently miss revocations.
    changes: new PostgresChangeFeed(sessionUrl, options.changeFeed),
    dialect: behindPooler ? transactionScopedSettings(dialect, timeouts) : dialect,
    ping: async (timeoutMs) => {
      // Its own bound, shorter than the pool's: /readyz answers within it whether a connection is free or not.
      await within(pool.query({ text: "SELECT 1", query_timeout: timeoutMs } as pg.QueryConfig), timeoutMs, "PostgreSQL");
    },
    poolState: () => ({ max: pool.options.max, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    closeDriver: () => pool.end(),
  });
}

/** What either driver (PGlite, a PostgreSQL pool) is handed out as: its change feed started, Kysely on the request path
 * counting statements, the read cache over both, Prisma for operator paths; closing stops the feed and Prisma before
 * the driver. */
async function assembleDatabase(driver: {
  target: DatabaseTarget;
  prisma: PrismaClient;
  /** Not started yet: started here, before anything reads through the cache. */
  changes: ChangeFeed & { start(): Promise<void> };
  dialect: Dialect;
  ping(timeoutMs: number): Promise<void>;
  poolState(): PoolState | undefined;
  closeDriver(): Promise<void>;
}): Promise<Database> {
  const { target, prisma, changes } = driver;
  const statements = new StatementCounter();
  await changes.start();
  const kysely = await directKysely(requestPathDialect(driver.dialect, statements));
  const claimReleases = new ClaimReleases(kysely);
  return {
    kysely,
    statements,
    changes,
    readCache: withReadCache(kysely, changes),
    claimReleases,
    keysToReadFirst: new KeysToReadFirst(),
    prisma,
    target,
    ping: (timeoutMs = 2_000) => driver.ping(timeoutMs),
    poolState: () => driver.poolState(),
    close: async () => {
      await claimReleases.close();
      await changes.close();
      await prisma.$disconnect();
      await driver.closeDriver();
    },
  };
}
