// `npm start` runs this first: it builds what the server serves besides the API when it is missing or older than its
// sources, so a fresh clone serves /console and /docs without a separate step (README "Quick start").
//   - the console (console/dist, Vite), also run by the test suite's global setup;
//   - the docs portal (docs/portal/index.html, Redocly), best effort: a failed portal build warns and the start goes on.
// Both need nothing beyond the installed packages, so they work offline after `npm ci`; they run side by side (the
// portal even beside the server's own start, below). Each writes into a temporary folder next to its target and is renamed into place, so a start stopped
// half-way (Ctrl-C, a crash) never leaves a half-written console or portal that the server would serve.
import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CONSOLE_SOURCE = path.join(root, "console");
export const CONSOLE_DIST = path.join(CONSOLE_SOURCE, "dist");
export const PORTAL_FILE = path.join(root, "docs", "portal", "index.html");
const run = promisify(execFile);

function newest(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

function mtime(file: string): number {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

export function consoleIsStale(): boolean {
  const sources = ["src", "index.html", "vite.config.ts", "package.json"].map((name) => newest(path.join(CONSOLE_SOURCE, name)));
  return mtime(path.join(CONSOLE_DIST, "index.html")) < Math.max(...sources);
}

/** The portal's inputs: the bundled contract, the guides placed in front of it, and the script that builds it. */
export function portalIsStale(): boolean {
  const inputs = [
    "openapi/generated/openapi.json",
    "docs/getting-started.md",
    "docs/webhooks.md",
    "scripts/build-docs.ts",
    "scripts/webhook-catalogue.ts",
  ].map((file) => mtime(path.join(root, file)));
  return mtime(PORTAL_FILE) < Math.max(...inputs);
}

/** Replaces `target` (a folder) with `built` in two renames: the old folder is moved aside first (a rename cannot
 * replace a non-empty folder), then removed. Between the renames the target is briefly absent, never half-written. */
function swapInto(built: string, target: string): void {
  const aside = `${target}.old-${process.pid}`;
  if (existsSync(target)) renameSync(target, aside);
  renameSync(built, target);
  rmSync(aside, { recursive: true, force: true });
}

/** A temporary folder beside `target` (same file system, so the final rename is atomic). */
function scratchBeside(target: string): string {
  return mkdtempSync(`${target}.building-`);
}

function viteBuild(outDir: string): [string, string[], { cwd: string; env: NodeJS.ProcessEnv }] {
  return [
    process.execPath,
    [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn", "--outDir", outDir],
    // A production bundle whatever the caller's NODE_ENV (vitest sets "test", which would bundle React's development build).
    { cwd: CONSOLE_SOURCE, env: { ...process.env, NODE_ENV: "production" } },
  ];
}

/** The console's production bundle (Vite), into `outDir` (default console/dist) through a temporary folder. Vite prints
 * only warnings and errors at this log level; they are passed on. */
export async function buildConsole(outDir = CONSOLE_DIST): Promise<void> {
  const scratch = scratchBeside(outDir);
  try {
    const { stdout, stderr } = await run(...viteBuild(scratch));
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    swapInto(scratch, outDir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The same, synchronously (the test suite's global setup: two projects' setups never build at once). */
export function buildConsoleSync(outDir = CONSOLE_DIST): void {
  const scratch = scratchBeside(outDir);
  try {
    const [file, args, options] = viteBuild(scratch);
    execFileSync(file, args, { ...options, stdio: ["ignore", "inherit", "inherit"] });
    swapInto(scratch, outDir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The docs portal (scripts/build-docs.ts, in its own process: Redocly is slow to load) written beside the served file,
 * then renamed over it. */
export async function buildPortal(file = PORTAL_FILE, scratch?: string): Promise<void> {
  const folder = path.dirname(file);
  mkdirSync(folder, { recursive: true });
  const into = scratch ?? scratchBeside(folder);
  try {
    await run(process.execPath, ["--import", "tsx", path.join(root, "scripts/build-docs.ts"), "--out", into], { cwd: root });
    renameSync(path.join(into, "index.html"), file);
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}

const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Builds the portal; its line either way (a failed portal build warns: the start goes on without /docs). */
async function portalStep(build: () => Promise<void>): Promise<string> {
  const started = performance.now();
  try {
    await build();
    return `docs portal: built docs/portal/index.html (served at /docs) (${seconds(started)})`;
  } catch (error) {
    const message = (error as { stderr?: string }).stderr || (error as Error).message;
    return `docs portal: not built (${String(message).trim().split("\n").at(-1)}); /docs answers 404 until \`npm run docs\` succeeds`;
  }
}

/** Builds what is missing or stale; returns one line per build made (empty when everything was fresh). */
export async function ensureStartBuilds(which: { console: boolean; portal: boolean } = { console: true, portal: true }): Promise<string[]> {
  const portal = which.portal && portalIsStale() ? portalStep(() => buildPortal()) : undefined;
  const bundle =
    which.console && consoleIsStale()
      ? (async () => {
          const started = performance.now();
          await buildConsole();
          return `console: built console/dist (served at /console) (${seconds(started)})`;
        })()
      : undefined;
  return (await Promise.all([bundle, portal])).filter((line): line is string => line !== undefined);
}

/** The test suite's global setup: the console only (the browser tests open /console), synchronously. */
export function ensureConsole(): boolean {
  if (!consoleIsStale()) return false;
  buildConsoleSync();
  return true;
}

/** `npm start`: the console is built before the server starts; the portal, the slower build (Redocly), beside the
 * server's start, in a child process this script leaves running: the first start on a fresh clone then takes about the
 * longer of the two instead of their sum. Until the portal is in place /docs answers 503 with Retry-After
 * (server/http/docs-portal.ts); the child prints its line when done. A start stopped meanwhile stops it too (same
 * process group); its temporary folder is left and removed by the next build. */
function buildPortalBeside(): void {
  // The temporary folder is made here, before this script ends: the server, starting next, sees it (a 503, not a 404).
  mkdirSync(path.dirname(PORTAL_FILE), { recursive: true });
  const scratch = scratchBeside(path.dirname(PORTAL_FILE));
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "portal", scratch], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.unref();
}

function removeLeftovers(target: string): void {
  const prefix = `${path.basename(target)}.building-`;
  const parent = path.dirname(target);
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) if (name.startsWith(prefix)) rmSync(path.join(parent, name), { recursive: true, force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const only = process.argv[2];
  if (only === undefined && portalIsStale()) {
    removeLeftovers(path.dirname(PORTAL_FILE));
    buildPortalBeside();
  }
  if (only === "portal" && process.argv[3]) {
    // The child of buildPortalBeside: into the folder it was given.
    console.log(await portalStep(() => buildPortal(PORTAL_FILE, process.argv[3])));
  } else {
    const lines = await ensureStartBuilds({ console: only !== "portal", portal: only === "portal" });
    for (const line of lines) console.log(line);
  }
}
