// A fresh database per test file: in-memory PGlite, or a throwaway database on the PostgreSQL of TEST_DATABASE_URL.
// `migrated: true` starts it from the run's migrated template (test/global-setup.ts) instead of an empty database:
// on PostgreSQL `CREATE DATABASE … TEMPLATE` (a file copy, no migration run per file), on PGlite a data-directory dump
// for openDatabase's `pgliteTemplate`. Either way openDatabase still checks the migrations and finds none pending.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { pgliteTemplate } from "./pglite-template.ts";

export interface TestDatabase {
  url: string;
  kind: "pglite" | "postgres";
  /** PGlite with `migrated: true`: the dump to pass to openDatabase as `pgliteTemplate` (undefined without a template). */
  pgliteTemplate?: Blob;
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /** Start from the run's migrated template (default false: an empty database, e.g. to test the migrations). */
  migrated?: boolean;
}

export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base || base.startsWith("pglite:")) {
    return { url: "pglite:memory", kind: "pglite", pgliteTemplate: options.migrated ? pgliteTemplate() : undefined, drop: async () => {} };
  }
  const name = `coinplane_test_${randomBytes(6).toString("hex")}`;
  const template = options.migrated ? inject("postgresTemplate") : undefined;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: "postgres",
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
