// Once per project of a test run: the database every test file starts from, migrated once instead of once per file.
//   - PGlite projects: a migrated PGlite database dumped to a file that every in-memory test server loads
//     (test/helpers/pglite-template.ts). A new PGlite runs initdb, seconds per database here; loading a dump skips it.
//   - PostgreSQL projects: a migrated template database; each file's database is `CREATE DATABASE … TEMPLATE` of it
//     (test/helpers/test-database.ts), a copy of a few MB instead of every migration again.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureConsole } from "../scripts/ensure-start-builds.ts";
import { applyMigrations } from "../server/db/migrate.ts";
import { pgliteRunner, pgPoolRunner } from "../server/db/sql-runner.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite template's dump file. */
    pgliteTemplate: string;
    /** The migrated PostgreSQL template database's name (PostgreSQL projects only). */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The browser tests open /console: build it here when its sources changed (a few seconds; nothing otherwise). Each
  // project's setup runs it; it is synchronous, so two projects never build at once, and after the first it is fresh.
  ensureConsole();
  const databaseUrl = project.config.env?.TEST_DATABASE_URL;
  if (project.config.typecheck?.only) return async () => {};
  if (databaseUrl && !databaseUrl.startsWith("pglite:")) return postgresTemplate(project, databaseUrl);
  return pgliteTemplate(project);
}

async function pgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coinplane-pglite-template-"));
  const file = path.join(dir, "template.tar");
  const pglite = new PGlite();
  try {
    await applyMigrations(pgliteRunner(pglite));
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  } finally {
    await pglite.close();
  }
  project.provide("pgliteTemplate", file);
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject, databaseUrl: string): Promise<() => Promise<void>> {
  const name = `coinplane_template_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  // Every connection to the template is closed before a file copies it (CREATE DATABASE … TEMPLATE refuses otherwise).
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await applyMigrations(pgPoolRunner(pool));
  } finally {
    await pool.end();
  }
  project.provide("postgresTemplate", name);
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
