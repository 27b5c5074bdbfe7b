// Opens the database named by DATABASE_URL, applies migrations, and returns the typed query layer (Kysely) for request
// paths and a Prisma client over the same driver for operator paths (admin API, scripts), both on one driver.
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";
import { type DatabaseTarget, parseDatabaseUrl } from "./database-url.ts";
import type { DB } from "./kysely.ts";
import { applyMigrations } from "./migrate.ts";
import { PGliteDialect } from "./pglite-dialect.ts";
import { rollbackKeepsCause } from "./rollback-keeps-cause.ts";
import { pgliteRunner, pgPoolRunner } from "./sql-runner.ts";
import { countingDialect, StatementCounter } from "./statement-counter.ts";

export type Db = PrismaClient;

export interface Database {
  /** Request paths: typed queries on the driver (server/db/kysely.ts). */
  kysely: Kysely<DB>;
  /** Every statement `kysely` sent (the statement-budget tests read it). */
  statements: StatementCounter;
  /** Operator paths only (admin API, scripts, migration runner). */
  prisma: PrismaClient;
  target: DatabaseTarget;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  url?: string;
  /** Pool size per process for PostgreSQL. */
  poolSize?: number;
  migrate?: boolean;
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(options.url);
  const migrate = options.migrate ?? true;
  if (target.kind === "pglite") {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    const pglite = new PGlite(target.dataDir);
    await pglite.waitReady;
    if (migrate) await applyMigrations(pgliteRunner(pglite));
    // pglite-prisma-adapter 0.6 is typed against an older @prisma/driver-adapter-utils; the runtime interface is the same.
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) as never });
    const statements = new StatementCounter();
    return {
      kysely: new Kysely<DB>({ dialect: rollbackKeepsCause(countingDialect(new PGliteDialect(pglite), statements)) }),
      statements,
      prisma,
      target,
      ping: async () => {
        await pglite.query("SELECT 1");
      },
      close: async () => {
        await prisma.$disconnect();
        await pglite.close();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
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
  if (migrate) await applyMigrations(pgPoolRunner(pool));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const statements = new StatementCounter();
  return {
    kysely: new Kysely<DB>({ dialect: rollbackKeepsCause(countingDialect(new PostgresDialect({ pool }), statements)) }),
    statements,
    prisma,
    target,
    ping: async () => {
      await pool.query("SELECT 1");
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
