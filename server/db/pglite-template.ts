// A fresh PGlite folder costs initdb (seconds: PostgreSQL's bootstrap runs in WebAssembly) plus every migration. `npm
// run build` writes one migrated database as a data-directory dump (scripts/pglite-template.ts); a new folder starts
// from it when the dump was made from exactly these migrations by this PGlite version (its file name says so), and the
// migration runner then finds nothing to apply. Any other case runs initdb as before: the template only saves time.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Migration } from "./migrate.ts";

/** Beside the compiled server: dist/pglite-template (in the source tree, ./pglite-template, which nothing writes). */
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

/** True when `dataDir` holds no database yet (PostgreSQL writes PG_VERSION at initdb). */
export function isFreshPgliteFolder(dataDir: string): boolean {
  return !existsSync(path.join(dataDir, "PG_VERSION"));
}

/** The template for these migrations, when the build made one. */
export function findPgliteTemplate(migrations: Migration[], dir = PGLITE_TEMPLATE_DIR): Blob | undefined {
  const file = path.join(dir, pgliteTemplateName(migrations));
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}
