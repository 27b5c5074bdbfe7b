// `npm run migrate`: applies the pending migrations to DATABASE_URL (PostgreSQL or a PGlite folder) and says which;
// `npm run migrate -- status` lists applied, pending and changed ones and exits 1 unless the schema is up to date.
// Same runner as the server's start-time migration (server/db/migrate.ts: one transaction under an advisory lock,
// recorded in _prisma_migrations), so running it while instances start is safe. The compiled form, for the container
// image: `node dist/scripts/migrate.js [status]`.
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { loadConfig } from "../server/config.ts";
import { parseDatabaseUrl } from "../server/db/database-url.ts";
import { applyMigrations, migrationStatus, readMigrations } from "../server/db/migrate.ts";
import { lockPgliteFolder } from "../server/db/pglite-folder-lock.ts";
import { findPgliteTemplate, isFreshPgliteFolder } from "../server/db/pglite-template.ts";
import { pgliteRunner, pgPoolRunner, type SqlRunner } from "../server/db/sql-runner.ts";
import { describeStartupFailure } from "../server/startup-failure.ts";

const USAGE = "Usage: npm run migrate [-- status]";

async function openRunner(url: string | undefined): Promise<{ runner: SqlRunner; label: string; close(): Promise<void> }> {
  const target = parseDatabaseUrl(url);
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.connectionString, max: 1, connectionTimeoutMillis: 5_000 });
    return { runner: pgPoolRunner(pool), label: target.label, close: () => pool.end() };
  }
  if (!target.dataDir) throw new Error("DATABASE_URL=pglite:memory has nothing to migrate: it lives inside one server process");
  mkdirSync(target.dataDir, { recursive: true });
  const release = lockPgliteFolder(target.dataDir);
  const template = isFreshPgliteFolder(target.dataDir) ? findPgliteTemplate(await readMigrations()) : undefined;
  const pglite = new PGlite({ dataDir: target.dataDir, loadDataDir: template });
  await pglite.waitReady;
  return {
    runner: pgliteRunner(pglite),
    label: target.label,
    close: async () => {
      await pglite.close();
      release();
    },
  };
}

const command = process.argv[2] ?? "apply";
if (!["apply", "status"].includes(command)) {
  console.error(USAGE);
  process.exit(2);
}
let database: Awaited<ReturnType<typeof openRunner>>;
try {
  // Behind a pooler, migrations run on the direct session URL (README "Operations", "Behind a connection pooler").
  const config = loadConfig();
  database = await openRunner(config.pooler.directUrl ?? config.databaseUrl);
} catch (error) {
  console.error(`migrate: ${describeStartupFailure(error)}`);
  process.exit(1);
}
let exitCode = 0;
try {
  if (command === "apply") {
    const applied = await applyMigrations(database.runner);
    for (const name of applied) console.log(`applied ${name}`);
    console.log(
      `${database.label}: ${applied.length === 0 ? "schema up to date, nothing to apply" : `${applied.length} migration(s) applied`}`,
    );
  } else {
    const status = await migrationStatus(database.runner);
    for (const name of status.applied) console.log(`applied   ${name}`);
    for (const name of status.pending) console.log(`pending   ${name}`);
    for (const name of status.changed) console.log(`CHANGED   ${name}  (edited after it was applied: restore the released file)`);
    for (const name of status.unknown) console.log(`newer     ${name}  (applied by a newer release than this code)`);
    const upToDate = status.pending.length === 0 && status.changed.length === 0;
    console.log(
      `${database.label}: ${upToDate ? "schema up to date" : `${status.pending.length} pending, ${status.changed.length} changed`}`,
    );
    if (!upToDate) exitCode = 1;
  }
} catch (error) {
  console.error(`migrate: ${(error as Error).message}`);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
