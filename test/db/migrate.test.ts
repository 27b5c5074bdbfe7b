// applyMigrations on a fresh database: order, bookkeeping in _prisma_migrations, idempotence, checksum guard, and
// (PostgreSQL) concurrent starts serialised by the advisory lock.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR, type Migration, readMigrations } from "../../server/db/migrate.ts";
import { pgliteRunner, pgPoolRunner, type SqlRunner } from "../../server/db/sql-runner.ts";
import { createTestDatabase } from "../helpers/test-database.ts";

interface Target {
  runner: SqlRunner;
  query<R>(sql: string): Promise<R[]>;
  /** Another connection (PostgreSQL only): a second server instance starting at the same time. */
  second?: SqlRunner;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshDatabase(): Promise<Target> {
  const testDb = await createTestDatabase();
  if (testDb.kind === "pglite") {
    const db = new PGlite();
    await db.waitReady;
    cleanups.push(() => db.close());
    return { runner: pgliteRunner(db), query: async (sql) => (await db.query(sql)).rows as never };
  }
  const pools = [new pg.Pool({ connectionString: testDb.url, max: 2 }), new pg.Pool({ connectionString: testDb.url, max: 2 })];
  cleanups.push(testDb.drop);
  for (const pool of pools) {
    // The database is dropped WITH (FORCE) as the test ends: a connection still closing hears the termination, which
    // its pool re-emits; without a listener that is an uncaught error in a worker that runs the next file.
    pool.on("error", () => {});
    cleanups.push(() => pool.end());
  }
  const [a, b] = pools as [pg.Pool, pg.Pool];
  return { runner: pgPoolRunner(a), second: pgPoolRunner(b), query: async (sql) => (await a.query(sql)).rows };
}

const folders = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const checksumOf = (name: string) =>
  createHash("sha256")
    .update(readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql")))
    .digest("hex");

interface Row {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
  applied_steps_count: number;
}
const recorded = (t: Target) =>
  t.query<Row>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
  );

describe("applyMigrations", () => {
  it("reads every folder of prisma/migrations, in name order", async () => {
    expect(folders.length).toBeGreaterThan(0);
    const migrations = await readMigrations();
    expect(migrations.map((m) => m.name)).toEqual(folders);
    for (const m of migrations) expect(m.checksum).toBe(checksumOf(m.name));
  });

  it("applies every migration in order and records each with its sha256 checksum and finished_at", async () => {
    const t = await freshDatabase();
    expect(await applyMigrations(t.runner)).toEqual(folders);
    const rows = await recorded(t);
    expect(rows.map((r) => r.migration_name)).toEqual(folders);
    for (const row of rows) {
      expect(row.checksum).toBe(checksumOf(row.migration_name));
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    // The schema exists: the tables the app uses are there.
    const tables = await t.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    expect(tables.map((r) => r.table_name)).toEqual(expect.arrayContaining(["ApiKey", "Wallet", "Payment", "_prisma_migrations"]));
  });

  it("a second run applies nothing and records nothing", async () => {
    const t = await freshDatabase();
    await applyMigrations(t.runner);
    expect(await applyMigrations(t.runner)).toEqual([]);
    expect(await recorded(t)).toHaveLength(folders.length);
  });

  it("applies only a migration added later", async () => {
    const t = await freshDatabase();
    await applyMigrations(t.runner);
    const extra: Migration = { name: "99990101000000_test_extra", sql: "CREATE TABLE test_extra (id integer)", checksum: "x".repeat(64) };
    const migrations = [...(await readMigrations()), extra];
    expect(await applyMigrations(t.runner, migrations)).toEqual([extra.name]);
    expect((await recorded(t)).map((r) => r.migration_name)).toEqual([...folders, extra.name]);
  });

  it("throws when an applied migration's checksum changed, and applies nothing", async () => {
    const t = await freshDatabase();
    await applyMigrations(t.runner);
    const [first, ...rest] = await readMigrations();
    const changed: Migration = { ...(first as Migration), sql: `${first?.sql}\n-- edited`, checksum: "0".repeat(64) };
    const extra: Migration = { name: "99990101000000_test_extra", sql: "CREATE TABLE test_extra (id integer)", checksum: "x".repeat(64) };
    await expect(applyMigrations(t.runner, [changed, ...rest, extra])).rejects.toThrow(/checksum/);
    expect(await recorded(t)).toHaveLength(folders.length);
  });

  it("rolls back everything when a migration fails", async () => {
    const t = await freshDatabase();
    const broken: Migration = {
      name: "99990101000000_broken",
      sql: "CREATE TABLE ok_table (id integer); SELECT * FROM no_such_table",
      checksum: "b".repeat(64),
    };
    await expect(applyMigrations(t.runner, [...(await readMigrations()), broken])).rejects.toThrow();
    const tables = await t.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    expect(tables.map((r) => r.table_name)).not.toContain("ok_table");
    expect(tables.map((r) => r.table_name)).not.toContain("ApiKey");
  });

  it("two concurrent runs (PostgreSQL, two pools) both succeed and record each migration exactly once", async (ctx) => {
    const t = await freshDatabase();
    if (!t.second) return ctx.skip();
    const [a, b] = await Promise.all([applyMigrations(t.runner), applyMigrations(t.second)]);
    expect([...a, ...b].sort()).toEqual(folders);
    expect([a.length, b.length].sort((x, y) => x - y)).toEqual([0, folders.length]);
    const counts = await t.query<{ migration_name: string; n: string | number }>(
      `SELECT migration_name, count(*) AS n FROM "_prisma_migrations" GROUP BY migration_name ORDER BY migration_name`,
    );
    expect(counts.map((r) => [r.migration_name, Number(r.n)])).toEqual(folders.map((f) => [f, 1]));
  });
});
