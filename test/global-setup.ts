// Once per test run: a migrated PGlite database, dumped to a file that every in-memory test server starts from
// (test/helpers/pglite-template.ts). A new PGlite runs initdb, seconds per database here; loading a dump skips it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { ensureConsole } from "../scripts/ensure-console.ts";
import { applyMigrations } from "../server/db/migrate.ts";
import { pgliteRunner } from "../server/db/sql-runner.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite template's dump file. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // The browser tests open /console: build it once here when its sources changed (a few seconds; nothing otherwise).
  ensureConsole();
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
  return () => rmSync(dir, { recursive: true, force: true });
}
