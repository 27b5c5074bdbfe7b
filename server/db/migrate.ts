// Applies prisma/migrations/*/migration.sql in order, in one transaction under a PostgreSQL advisory lock, and records
// them in `_prisma_migrations` as Prisma does, so `prisma migrate status` agrees wherever the native engine exists.
// (Prisma 6.19's Wasm `migrate deploy` fails on PostgreSQL and hangs on PGlite; see DESIGN.md.)
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SqlRunner } from "./sql-runner.ts";

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../prisma/migrations");

// An arbitrary constant shared by every instance, so concurrent starts apply migrations one at a time.
const MIGRATION_LOCK_ID = 727_001_337;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** Returns the names of the migrations applied by this call. */
export async function applyMigrations(runner: SqlRunner, migrations?: Migration[]): Promise<string[]> {
  const pending = migrations ?? (await readMigrations());
  return runner.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await tx.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
    );
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const done: string[] = [];
    for (const migration of pending) {
      const known = applied.get(migration.name);
      if (known !== undefined) {
        if (known !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was changed after it was applied (checksum mismatch)`);
        }
        continue;
      }
      await tx.exec(migration.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      done.push(migration.name);
    }
    return done;
  });
}

export interface MigrationStatus {
  /** Recorded as applied, with the checksum of the file on disk. */
  applied: string[];
  /** On disk, not applied yet. */
  pending: string[];
  /** Applied, but the file changed since (a migration is never edited once released). */
  changed: string[];
  /** Recorded as applied but absent on disk: a newer release applied them (this code is older than the schema). */
  unknown: string[];
}

/** Compares the migrations on disk with those the database recorded; changes nothing. */
export async function migrationStatus(runner: SqlRunner, migrations?: Migration[]): Promise<MigrationStatus> {
  const onDisk = migrations ?? (await readMigrations());
  const rows = await runner.transaction(async (tx) => {
    const [table] = await tx.query<{ exists: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`);
    if (!table?.exists) return [];
    return tx.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
    );
  });
  const recorded = new Map(rows.map((r) => [r.migration_name, r.checksum]));
  const names = new Set(onDisk.map((m) => m.name));
  return {
    applied: onDisk.filter((m) => recorded.get(m.name) === m.checksum).map((m) => m.name),
    pending: onDisk.filter((m) => !recorded.has(m.name)).map((m) => m.name),
    changed: onDisk.filter((m) => recorded.has(m.name) && recorded.get(m.name) !== m.checksum).map((m) => m.name),
    unknown: [...recorded.keys()].filter((name) => !names.has(name)).sort(),
  };
}

/** A start with MIGRATE_ON_START=false finds the schema behind this code. */
export class MigrationsPending extends Error {
  readonly pending: string[];

  constructor(pending: string[]) {
    super(
      `${pending.length} migration(s) not applied (${pending.join(", ")}): run \`npm run migrate\` first, or start with MIGRATE_ON_START=true`,
    );
    this.pending = pending;
  }
}
