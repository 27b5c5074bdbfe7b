// Builds the console (console/dist) when it is missing or older than its sources: `npm start` and the test suite run
// this first, so a fresh clone serves /console without a separate step. The build needs nothing beyond the installed
// packages (Vite, React, uPlot from the registry), so it works offline after `npm ci`.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CONSOLE_SOURCE = path.join(root, "console");
export const CONSOLE_DIST = path.join(CONSOLE_SOURCE, "dist");

function newest(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

function builtAt(): number {
  try {
    return statSync(path.join(CONSOLE_DIST, "index.html")).mtimeMs;
  } catch {
    return 0;
  }
}

export function consoleIsStale(): boolean {
  const sources = ["src", "index.html", "vite.config.ts", "package.json"].map((name) => newest(path.join(CONSOLE_SOURCE, name)));
  return builtAt() < Math.max(...sources);
}

export function buildConsole(): void {
  execFileSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
    cwd: CONSOLE_SOURCE,
    stdio: ["ignore", "inherit", "inherit"],
    // A production bundle whatever the caller's NODE_ENV (vitest sets "test", which would bundle React's development build).
    env: { ...process.env, NODE_ENV: "production" },
  });
}

export function ensureConsole(): boolean {
  if (!consoleIsStale()) return false;
  buildConsole();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (ensureConsole()) console.log("console: built console/dist (served at /console)");
}
