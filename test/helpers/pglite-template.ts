// The migrated PGlite template of this test run (test/global-setup.ts), read once per test file.
import { readFileSync } from "node:fs";
import { inject } from "vitest";

let template: Blob | undefined;

/** The template to start an in-memory PGlite from; undefined when the run has none (a config without the setup). */
export function pgliteTemplate(): Blob | undefined {
  if (template) return template;
  const file = inject("pgliteTemplate");
  if (!file) return undefined;
  template = new Blob([readFileSync(file)]);
  return template;
}
