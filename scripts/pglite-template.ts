// Build step (scripts/build.ts): one migrated PGlite database, dumped where a fresh PGlite folder looks for it
// (server/db/pglite-template.ts). Older templates in the folder are removed.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations, readMigrations } from "../server/db/migrate.ts";
import { pgliteTemplateName } from "../server/db/pglite-template.ts";
import { pgliteRunner } from "../server/db/sql-runner.ts";

/** Writes `<distDir>/pglite-template/<name>.tar`; returns its path. */
export async function writePgliteTemplate(distDir: string): Promise<string> {
  const migrations = await readMigrations();
  const dir = path.join(distDir, "pglite-template");
  const file = path.join(dir, pgliteTemplateName(migrations));
  const pglite = new PGlite();
  try {
    await applyMigrations(pgliteRunner(pglite), migrations);
    const dump = await pglite.dumpDataDir("none");
    mkdirSync(dir, { recursive: true });
    for (const old of readdirSync(dir)) rmSync(path.join(dir, old), { force: true });
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
  return file;
}
