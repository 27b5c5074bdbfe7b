// README "Quick start", followed on a fresh clone (test/helpers/fresh-clone.ts) as a newcomer follows it, in the order
// printed: `npm start` (the clone's own: it builds the console and the docs portal), sign in as the first owner, create
// the key with the command the start printed, the calls of every surface, the samples' setup, then /docs (built beside
// the server's start) and /console.
// The ```bash blocks run verbatim, in one shell, in the clone; only their environment is set (curl's config sends what
// the README addresses as localhost:8080 to the server's free port, COINPLANE_URL points the setup step at it, as in
// test/docs/sandbox.ts). `npm ci` is the one step replaced (the clone links the installed node_modules). A restart then
// speaks of signing in, no longer of the spent invitation.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshClone, freshClone } from "../helpers/fresh-clone.ts";
import { freePort, waitFor } from "../helpers/server-process.ts";
import { bashBlocks, type ShellResult } from "./sandbox.ts";

const STATUS_LINE = /^@@status=(\d{3})$/gm;

/** A one-line JSON response body (curl prints them so), else nothing: the CLI's pretty-printed output spans lines. */
function jsonLine(line: string): Array<Record<string, unknown>> {
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === "object" ? [value as Record<string, unknown>] : [];
  } catch {
    return [];
  }
}

interface Started {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

let clone: FreshClone;
let port: number;
let quickStart: string;
let blocks: string[];
let first: { stdout: string; stderr: string; seconds: number };
let run: ShellResult;
const pages: Record<string, { status: number; type: string | null }> = {};
let restart: { stdout: string; stderr: string };
const running = new Set<ChildProcess>();

/** `npm start` in the clone, in its own process group (so a stop reaches npm, tsx and the server). */
function npmStart(command: string): Started {
  const child = spawn("bash", ["-c", command], {
    cwd: clone.dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: "127.0.0.1" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Waits for the start's banner (printed once it listens and is ready); fails with the output when it never comes. */
async function untilBanner(started: Started): Promise<void> {
  const ok = await waitFor(() => started.output().stdout.includes("Create a key:") || started.child.exitCode !== null, 480_000);
  const { stdout, stderr } = started.output();
  if (!ok || !stdout.includes("Create a key:")) throw new Error(`npm start did not come up:\n${stdout}\n${stderr}`);
}

async function stop(started: Started): Promise<void> {
  if (started.child.pid && started.child.exitCode === null) process.kill(-started.child.pid, "SIGTERM");
  await started.exited;
}

function bash(script: string, curlHome: string): Promise<ShellResult> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], {
      cwd: clone.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CURL_HOME: curlHome, COINPLANE_URL: `http://127.0.0.1:${port}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("close", (code) => resolve({ code, stdout, stderr, statuses: [...stdout.matchAll(STATUS_LINE)].map((m) => Number(m[1])) }));
  });
}

beforeAll(async () => {
  clone = freshClone();
  port = await freePort();
  const readme = readFileSync(path.join(clone.dir, "README.md"), "utf8");
  quickStart = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
  blocks = bashBlocks(quickStart);
  const curlHome = path.join(clone.dir, ".data", "curl");
  mkdirSync(curlHome, { recursive: true });
  writeFileSync(
    path.join(curlHome, ".curlrc"),
    [`write-out = "\\n@@status=%{http_code}\\n"`, `connect-to = "localhost:8080:127.0.0.1:${port}"`].join("\n"),
  );

  // 1. Start: the first block's `npm ci && npm start`, less `npm ci` (node_modules is linked).
  const startLine = (blocks[0] ?? "").split("\n").find((line) => /^npm ci && npm start\b/.test(line)) ?? "";
  const startCommand = startLine.replace(/#.*$/, "").replace("npm ci && ", "").trim();
  const began = performance.now();
  const started = npmStart(startCommand);
  await untilBanner(started);
  first = { ...started.output(), seconds: (performance.now() - began) / 1000 };

  // 2–5. Every other block, in order, in one shell.
  run = await bash(blocks.slice(1).join("\n"), curlHome);
  // 5–6. The pages a browser opens. The portal is built beside the server's start (scripts/ensure-start-builds.ts):
  // until it is in place /docs answers 503 with Retry-After, never 404.
  const docsStatuses = new Set<number>();
  await waitFor(async () => {
    const status = (await fetch(`http://127.0.0.1:${port}/docs`)).status;
    docsStatuses.add(status);
    return status === 200;
  }, 300_000);
  pages.docsWhileBuilding = { status: Math.max(...[...docsStatuses].filter((s) => s !== 200), 0), type: null };
  first = { ...started.output(), seconds: first.seconds };
  for (const page of ["/docs", "/console"]) {
    const res = await fetch(`http://127.0.0.1:${port}${page}`);
    pages[page] = { status: res.status, type: res.headers.get("content-type") };
  }

  // A restart, after the invitation was used.
  await stop(started);
  const again = npmStart(startCommand);
  await untilBanner(again);
  restart = again.output();
  await stop(again);
}, 900_000);

afterAll(() => {
  for (const child of running) if (child.pid) process.kill(-child.pid, "SIGKILL");
  clone?.remove();
});

describe("README quick start, on a fresh clone", () => {
  it("is in the order start, sign in, key, the calls, /docs, /console", () => {
    const steps = [
      "npm ci && npm start",
      "member-invitations/accept",
      "api/v2/agent/sessions",
      "keys create",
      "/api/v1/wallets",
      "/api/metric/",
      "providers/invoke",
      "localhost:8080/docs",
      "localhost:8080/console",
    ];
    const positions = steps.map((step) => quickStart.indexOf(step));
    for (const [i, step] of steps.entries()) expect(positions[i], step).toBeGreaterThanOrEqual(0);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("has no placeholder to edit in its commands", () => {
    expect(blocks.join("\n")).not.toMatch(/…|<[a-z_ ]+>|YOUR_|xxx/i);
  });

  it("npm start builds the console and the docs portal on a fresh clone, and warns about nothing", () => {
    const phases = first.stdout.split("\n").filter((line) => /^(coinplane|console|docs portal):/.test(line));
    console.log(`first start on a fresh clone: banner after ${first.seconds.toFixed(1)} s\n${phases.join("\n")}`);
    expect(first.stdout).toMatch(/^console: built console\/dist/m);
    expect(first.stdout).toMatch(/^docs portal: built docs\/portal\/index.html/m);
    expect(`${first.stdout}\n${first.stderr}`).not.toMatch(/warn|MODULE_LEVEL_DIRECTIVE/i);
  });

  it("the start prints exactly the README's key command", () => {
    const keyCommand = (blocks.find((block) => block.includes("keys create")) ?? "").trim();
    expect(keyCommand).toMatch(/^export KEY=\$\(npm run -s cli -- keys create .*--print key\)$/);
    expect(first.stdout).toContain(`Create a key: ${keyCommand}\n`);
  });

  it("runs every command without an error, and every curl call answers 2xx", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).not.toMatch(/error/i);
    const curls = (
      blocks
        .slice(1)
        .join("\n")
        .match(/^curl /gm) ?? []
    ).length;
    expect(curls).toBeGreaterThanOrEqual(7);
    expect(run.statuses).toHaveLength(curls);
    for (const status of run.statuses) expect(status, run.stdout).toBeGreaterThanOrEqual(200);
    for (const status of run.statuses) expect(status, run.stdout).toBeLessThan(300);
  });

  it("signs in as the first owner, then reaches a created payment, a metric, an FX quote and a sample", () => {
    const bodies = run.stdout.split("\n").flatMap(jsonLine);
    expect(bodies.find((body) => Array.isArray(body.data) && JSON.stringify(body).includes("owner@demo.example"))).toBeDefined();
    const payment = bodies.find((body) => typeof body.id === "string" && body.id.startsWith("pay_"));
    expect(payment, run.stdout).toMatchObject({ status: "confirmed", amount: "125.50", stablecoin: "USDC" });
    expect(
      bodies.find((body) => typeof body.cardId === "string"),
      run.stdout,
    ).toMatchObject({ status: "active", simulated: true });
  });

  it("serves /docs and /console (/docs answers 503, not 404, while the first start builds it)", () => {
    expect([0, 503]).toContain(pages.docsWhileBuilding?.status);
    expect(pages["/docs"]).toMatchObject({ status: 200, type: expect.stringContaining("text/html") });
    expect(pages["/console"]).toMatchObject({ status: 200, type: expect.stringContaining("text/html") });
  });

  it("a restart no longer advertises the used invitation: it says how to sign in", () => {
    expect(restart.stdout).not.toMatch(/Owner invitation|owner-invitation/);
    expect(restart.stdout).toContain("Sign in as owner@demo.example at http://localhost:");
    expect(restart.stdout).not.toMatch(/^(console|docs portal): built/m);
  });
});
