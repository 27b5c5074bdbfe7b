// `npm run build`: the one place builds happen. Each step below runs in order and prints one line with its time; a
// failing step fails the build. The compiled production start (`npm run start:prod`, the Dockerfile's command) runs
// what this writes into dist/, with no TypeScript loader in the process.
//
// A new build is one more entry in STEPS (the console's Vite build is one), plus the copy of its output into dist/
// when the server serves it from there.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildDocs, PORTAL_DIR } from "./build-docs.ts";
import { buildConsole, CONSOLE_DIST } from "./ensure-start-builds.ts";
import { writePgliteTemplate } from "./pglite-template.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(root, "dist");

export interface BuildStep {
  name: string;
  /** Returns a short note for the step's line (what it wrote). */
  run(): string | Promise<string>;
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
}

/** Files the compiled server reads at run time, at the same place relative to it as in the source tree. */
const RUNTIME_FILES = [
  "prisma/migrations",
  "openapi/generated/openapi.json",
  "openapi/generated/openapi.yaml",
  "server/domain/contracts/solc-worker.mjs",
];

export const STEPS: BuildStep[] = [
  {
    // JavaScript only: `npm run lint` type-checks (tsc -p tsconfig.json); here tsc rewrites `./x.ts` imports to `./x.js`.
    name: "server",
    run() {
      rmSync(DIST, { recursive: true, force: true });
      run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--noCheck"]);
      for (const file of RUNTIME_FILES) cpSync(path.join(root, file), path.join(DIST, file), { recursive: true });
      return "dist/server, dist/scripts (tsc) and the files they read";
    },
  },
  {
    name: "docs portal",
    run() {
      const portal = buildDocs();
      mkdirSync(path.join(DIST, "docs/portal"), { recursive: true });
      cpSync(PORTAL_DIR, path.join(DIST, "docs/portal"), { recursive: true });
      return `${path.relative(root, portal)} (served at /docs)`;
    },
  },
  {
    // The console (Vite): the server serves it from ../../console/dist relative to server/http, so dist/console/dist.
    name: "console",
    async run() {
      await buildConsole();
      cpSync(CONSOLE_DIST, path.join(DIST, "console/dist"), { recursive: true });
      return "console/dist (served at /console)";
    },
  },
  {
    // A fresh PGlite folder starts from this migrated database instead of running initdb (seconds) and the migrations.
    name: "pglite template",
    run: async () => path.relative(root, await writePgliteTemplate(DIST)),
  },
];

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  for (const step of STEPS) {
    const stepStarted = performance.now();
    const note = await step.run();
    console.log(`build: ${step.name}: ${note} (${((performance.now() - stepStarted) / 1000).toFixed(1)} s)`);
  }
  console.log(`build: done in ${((performance.now() - started) / 1000).toFixed(1)} s; start it with npm run start:prod`);
}
