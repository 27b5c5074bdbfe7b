// One migrated PGlite database, dumped where a fresh PGlite folder looks for it (server/db/pglite-template.ts): written
// by the build (scripts/build.ts, into dist/) and by `npm start` beside its own start (scripts/start-pglite-template.ts,
// into ./pglite-template). Either way the dump is written under a temporary name and renamed into place, so a reader
// never loads a half-written file; older templates in the folder are removed.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations, readMigrations } from "../server/db/migrate.ts";
import { pgliteTemplateName, templateInProgress } from "../server/db/pglite-template.ts";
import { pgliteRunner } from "../server/db/sql-runner.ts";

/** Writes `<dir>/<name>.tar` (through `<name>.tar.building-<pid>`); returns its path. When another process renamed
 * its own dump into place first, that one is kept (the same migrations, the same PGlite: the same database). */
export async function makePgliteTemplate(dir: string): Promise<string> {
  const migrations = await readMigrations();
  const file = path.join(dir, pgliteTemplateName(migrations));
  const scratch = templateInProgress(file, process.pid);
  const pglite = new PGlite();
  try {
    await applyMigrations(pgliteRunner(pglite), migrations);
    const dump = await pglite.dumpDataDir("none");
    mkdirSync(dir, { recursive: true });
    writeFileSync(scratch, Buffer.from(await dump.arrayBuffer()));
    if (existsSync(file)) rmSync(scratch, { force: true });
    else renameSync(scratch, file);
    for (const old of readdirSync(dir))
      if (old.endsWith(".tar") && old !== path.basename(file)) rmSync(path.join(dir, old), { force: true });
  } catch (error) {
    rmSync(scratch, { force: true });
    throw error;
  } finally {
    await pglite.close();
  }
  return file;
}

/** The build's: `<distDir>/pglite-template/<name>.tar`. */
export function writePgliteTemplate(distDir: string): Promise<string> {
  return makePgliteTemplate(path.join(distDir, "pglite-template"));
}
