// A fresh PGlite folder costs initdb (seconds: PostgreSQL's bootstrap runs in WebAssembly) plus every migration. `npm
// run build` writes one migrated database as a data-directory dump (scripts/pglite-template.ts); a new folder starts
// from it when the dump was made from exactly these migrations by this PGlite version (its file name says so), and the
// migration runner then finds nothing to apply. Any other case runs initdb as before: the template only saves time.
// `npm start` from the source tree makes the same dump beside its own start when none exists yet (in ./pglite-template,
// scripts/start-pglite-template.ts): a child process writes `<name>.building-<its pid>` and renames it to `<name>` when
// done, so the server waits for it only while that pid runs, and never reads a half-written dump.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Migration } from "./migrate.ts";
import { isRunning } from "./pglite-folder-lock.ts";

/** Beside the compiled server: dist/pglite-template (in the source tree, ./pglite-template, which `npm start` writes). */
export const PGLITE_TEMPLATE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../pglite-template");

function pgliteVersion(): string {
  // The package does not export its package.json; its entry point sits in dist/ under the package folder.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
}

/** `pglite-<version>-<hash of the migrations' names and checksums>.tar`. */
export function pgliteTemplateName(migrations: Migration[]): string {
  const hash = createHash("sha256");
  for (const migration of migrations) hash.update(`${migration.name}:${migration.checksum}\n`);
  return `pglite-${pgliteVersion()}-${hash.digest("hex").slice(0, 16)}.tar`;
}

/** Where the process `pid` writes the template `file` before renaming it into place. */
export function templateInProgress(file: string, pid: number): string {
  return `${file}.building-${pid}`;
}

/** The pids of the processes writing `file` now or earlier (their files are left when they die before the rename). */
export function templateWriters(file: string): number[] {
  const dir = path.dirname(file);
  if (!existsSync(dir)) return [];
  const prefix = `${path.basename(file)}.building-`;
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .map((name) => Number(name.slice(prefix.length)))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** True when `dataDir` holds no database yet (PostgreSQL writes PG_VERSION at initdb). */
export function isFreshPgliteFolder(dataDir: string): boolean {
  return !existsSync(path.join(dataDir, "PG_VERSION"));
}

/** The template for these migrations, when the build made one. */
export function findPgliteTemplate(migrations: Migration[], dir = PGLITE_TEMPLATE_DIR): Blob | undefined {
  const file = path.join(dir, pgliteTemplateName(migrations));
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** A template for a new folder: how it was had, for the start's progress line. */
export interface TemplateFound {
  template: Blob | undefined;
  /** What the database line says about it ("new, from …"), undefined when the template played no part. */
  note: string | undefined;
}

/** The template for these migrations, waiting first for a process still writing it (the one `npm start` runs beside
 * the server): polled, so the server's modules keep loading meanwhile. When that process ends without the template
 * (it failed, or was stopped), the folder is made by initdb as without a template, and the note says why. */
export async function awaitPgliteTemplate(migrations: Migration[], dir = PGLITE_TEMPLATE_DIR, pollMs = 50): Promise<TemplateFound> {
  const file = path.join(dir, pgliteTemplateName(migrations));
  const writers = templateWriters(file);
  while (!existsSync(file) && templateWriters(file).some(isRunning)) await new Promise((resolve) => setTimeout(resolve, pollMs));
  if (existsSync(file)) {
    // Who made it, by where it is (whether this start waited for it depends only on how fast the machine is).
    const by = path.basename(path.dirname(dir)) === "dist" ? "the build's migrated template" : "the migrated template `npm start` makes";
    return { template: new Blob([readFileSync(file)]), note: `new, from ${by}` };
  }
  if (writers.length > 0) {
    return { template: undefined, note: "new, by initdb (the migrated template being made beside this start did not come)" };
  }
  return { template: undefined, note: undefined };
}
