// The first `npm start` on a fresh clone: a new PGlite folder costs initdb (PostgreSQL's bootstrap in WebAssembly, ≈3-4
// s of one core) plus every migration, on the server's main thread, after its modules load (docs/performance.md "The
// first start on a fresh clone"). scripts/ensure-start-builds.ts starts this file in a child process first thing, so
// the migrated template the build would make (scripts/pglite-template.ts) is made on the other core while the console
// builds and the server's modules load; the server then loads it (server/db/pglite-template.ts awaitPgliteTemplate,
// waiting while this child runs) instead of running initdb. A failed child prints one line and the server runs initdb.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseDatabaseUrl } from "../server/db/database-url.ts";
import { readMigrations } from "../server/db/migrate.ts";
import { isRunning } from "../server/db/pglite-folder-lock.ts";
import {
  isFreshPgliteFolder,
  PGLITE_TEMPLATE_DIR,
  pgliteTemplateName,
  templateInProgress,
  templateWriters,
} from "../server/db/pglite-template.ts";
import { makePgliteTemplate } from "./pglite-template.ts";

/** True when the server about to start opens a new PGlite folder with migrations (what the template is for). The
 * settings are the server's (server/config.ts reads the same variables); one it refuses makes no template. */
function serverWantsTemplate(env: NodeJS.ProcessEnv): boolean {
  if (env.MIGRATE_ON_START === "false") return false; // the server then refuses pending migrations, loads no template
  try {
    const target = parseDatabaseUrl(env.DATABASE_URL || undefined);
    return target.kind === "pglite" && target.dataDir !== undefined && isFreshPgliteFolder(target.dataDir);
  } catch {
    return false;
  }
}

/** Starts the child making the template, unless it exists, is being made, or is not wanted. Its in-progress file is
 * named here, before this script ends (the server, starting next, sees it and waits for this pid). The child stays in
 * the start's process group: a start stopped meanwhile stops it too, its file is left and removed by the next start. */
export async function startPgliteTemplateBeside(env: NodeJS.ProcessEnv = process.env, dir = PGLITE_TEMPLATE_DIR): Promise<boolean> {
  if (!serverWantsTemplate(env)) return false;
  const file = path.join(dir, pgliteTemplateName(await readMigrations()));
  if (existsSync(file)) return false;
  const writers = templateWriters(file);
  if (writers.some(isRunning)) return false; // another start is making it: this one's server waits for that one
  for (const pid of writers) rmSync(templateInProgress(file, pid), { force: true });
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), dir], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (child.pid === undefined) return false;
  mkdirSync(dir, { recursive: true });
  writeFileSync(templateInProgress(file, child.pid), "");
  child.unref();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? PGLITE_TEMPLATE_DIR;
  const started = performance.now();
  try {
    const file = await makePgliteTemplate(dir);
    console.log(
      `pglite template: made ${path.relative(process.cwd(), file)} for new data folders (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  } catch (error) {
    console.error(`pglite template: not made (${(error as Error).message.split("\n")[0]}); a new data folder runs initdb instead`);
    process.exitCode = 1;
  }
}
