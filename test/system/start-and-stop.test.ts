// Starting and stopping the real server as an operator does (issue 17, "start and stop cleanly"):
// 1. `npm start` forwards SIGTERM and SIGINT to the server, which drains and exits; nothing is left listening.
// 2. A start that cannot go on — port taken, DATABASE_URL without a database, a database that does not exist, a host
//    that refuses connections, a URL of another kind, a PGlite folder another process holds — exits 1 with one line on
//    stderr naming the cause, no stack trace, and never prints "running".
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/open-database.ts";
import { sealSecret } from "../../server/lib/webhooks/secret-box.ts";
import { BARE_SERVER_ENV, FROM_SOURCE, freePort, ROOT, startServerProcess, waitFor } from "../helpers/server-process.ts";
import { createTestDatabase } from "../helpers/test-database.ts";
import { insertWebhookEndpoint } from "../helpers/webhook-endpoint-row.ts";

const BASE_ENV = BARE_SERVER_ENV;

const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-start-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return () => ({ stdout, stderr });
}

/** Runs `node --experimental-strip-types server/main.ts` (as npm start) until it exits (SIGKILL after `timeoutMs`: a start that hangs fails the test). */
function runUntilExit(env: Record<string, string>, timeoutMs = 60_000): Promise<Finished> {
  const child = spawn(process.execPath, [...FROM_SOURCE, "server/main.ts"], { cwd: ROOT, env: { ...BASE_ENV, ...env } });
  const output = collect(child);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, ...output() });
    }),
  );
}

function expectOneLineFailure(run: Finished, fragment: RegExp): void {
  expect(run.code).toBe(1);
  const lines = run.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^coinplane: cannot start: /);
  expect(lines[0]).toMatch(fragment);
  expect(run.stderr).not.toMatch(/^\s+at /m); // no stack trace
  expect(run.stdout).not.toContain("is running");
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
    (res) => res.status === 200,
    () => false,
  );

describe("npm start passes signals to the server", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} to npm stops the server within 10 s and frees the port`, async () => {
      const port = await freePort();
      // --ignore-scripts skips prestart (the docs build), not the start script itself.
      const npm = spawn("npm", ["start", "--ignore-scripts"], {
        cwd: ROOT,
        env: { ...BASE_ENV, PORT: String(port), DATABASE_URL: "pglite:memory" },
      });
      const output = collect(npm);
      const npmExited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
      try {
        expect(await waitFor(() => answers(port), 90_000)).toBe(true);
        const server = await findListener(npm.pid as number);
        npm.kill(signal);
        const stopped = await waitFor(async () => !isRunning(server) && !(await answers(port)), 10_000);
        expect(stopped, `${output().stdout}\n${output().stderr}`).toBe(true);
        await npmExited;
      } finally {
        npm.kill("SIGKILL");
      }
    }, 120_000);
  }
});

/** The node process under `npm start` (the start script `exec`s node, so it is npm's child). */
async function findListener(npmPid: number): Promise<number> {
  const ps = spawn("ps", ["-o", "pid=,comm=", "--ppid", String(npmPid)]);
  const output = collect(ps);
  await new Promise((resolve) => ps.once("exit", resolve));
  const line = output()
    .stdout.trim()
    .split("\n")
    .find((l) => /node/.test(l));
  if (!line) throw new Error(`no node child under npm (${output().stdout})`);
  return Number(line.trim().split(/\s+/)[0]);
}

describe("a first start on a fresh folder", () => {
  it("says what it is doing, phase by phase, and prints where the generated admin token is kept, not the token", async () => {
    const folder = path.join(scratch, "fresh");
    const env = { ...BASE_ENV, ADMIN_TOKEN: "", WEBHOOK_SECRETS_KEY: "" } as Record<string, string>;
    const server = await startServerProcess({ databaseUrl: `pglite:${folder}/pglite`, env });
    try {
      const token = readFileSync(path.join(folder, "admin-token"), "utf8").trim();
      expect(token).toMatch(/^cp_admin_/);
      const { stdout } = server.output();
      const progress = stdout.split("\n").filter((line) => line.startsWith("coinplane: "));
      // The database opens while the server's modules load: those two lines come in either order.
      const phases = progress.map((line) => line.replace(/ \(\d+\.\d s\)$/, ""));
      expect(phases[0]).toBe(`coinplane: configuration read, port ${server.port} taken`);
      expect(phases.slice(1, 3).sort()).toEqual([
        // The source tree holds no build's template (that is dist/pglite-template): every migration runs.
        expect.stringMatching(new RegExp(`^coinplane: database pglite:${folder}/pglite: \\d+ migration\\(s\\) applied$`)),
        "coinplane: server modules loaded",
      ]);
      expect(phases[3]).toMatch(/^coinplane: docs portal: /);
      expect(phases[4]).toBe(`coinplane: listening at http://localhost:${server.port}`);
      expect(phases).toHaveLength(5);
      expect(stdout).toContain(`Admin token: written to ${path.join(folder, "admin-token")}`);
      expect(stdout).not.toContain(token);
      expect(server.output().stderr).not.toContain(token);
      // The webhook secrets key is generated beside it, never printed either.
      expect(stdout).not.toContain(readFileSync(path.join(folder, "webhook-secrets-key"), "utf8").trim());
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe("a start that cannot go on ends with one line", () => {
  let blocker: Server | undefined;
  afterAll(() => blocker?.close());

  it("port already in use", async () => {
    const port = await freePort();
    blocker = createServer().listen(port, "127.0.0.1");
    await new Promise((resolve) => blocker?.once("listening", resolve));
    const run = await runUntilExit({ PORT: String(port), DATABASE_URL: "pglite:memory" });
    expectOneLineFailure(run, new RegExp(`port ${port} is already in use`));
  }, 90_000);

  it("port already in use is found before the database is touched", async () => {
    // A database that accepts connections and never answers: a start that opened it before taking the port would wait
    // out the 60 s connect timeout, past this test's own limit.
    const sockets: Socket[] = [];
    const blackHole = createServer((socket) => sockets.push(socket)).listen(0, "127.0.0.1");
    await new Promise((resolve) => blackHole.once("listening", resolve));
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => taken.once("listening", resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const run = await runUntilExit(
        {
          PORT: String(port),
          DATABASE_URL: `postgresql://postgres@127.0.0.1:${(blackHole.address() as { port: number }).port}/coinplane`,
          DATABASE_CONNECT_TIMEOUT_MS: "60000",
        },
        25_000,
      );
      expectOneLineFailure(run, new RegExp(`port ${port} is already in use`));
      expect(sockets).toHaveLength(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      blackHole.close();
      taken.close();
    }
  }, 30_000);

  it("production settings: every missing secret and every bad value in one line", async () => {
    const run = await runUntilExit({
      NODE_ENV: "production",
      ADMIN_TOKEN: "",
      WEBHOOK_SECRETS_KEY: "",
      PORT: "eighty",
      DATABASE_URL: "pglite:memory",
    });
    expectOneLineFailure(
      run,
      /PORT must be an integer ≥ 0, got "eighty"; ADMIN_TOKEN, WEBHOOK_SECRETS_KEY and METRICS_TOKEN must be set when NODE_ENV=production$/,
    );
  }, 60_000);

  it("production without DATABASE_URL: one line (a development data folder is never picked up silently)", async () => {
    const run = await runUntilExit({
      NODE_ENV: "production",
      ADMIN_TOKEN: "admin-0123456789",
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 2).toString("base64"),
      METRICS_TOKEN: "metrics-0123456789",
      PORT: String(await freePort()),
    });
    expectOneLineFailure(
      run,
      /DATABASE_URL must be set when NODE_ENV=production \(DATABASE_URL: postgresql:\/\/… or an explicit pglite:<dir>\)$/,
    );
  }, 60_000);

  it("a WEBHOOK_SECRETS_KEY that cannot open the stored endpoint secrets: one line saying how to rotate", async () => {
    const testDb = await createTestDatabase({ migrated: true });
    try {
      const db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 1 });
      try {
        await insertWebhookEndpoint(db.kysely, sealSecret("whsec_c2VjcmV0", Buffer.alloc(32, 7)));
      } finally {
        await db.close();
      }
      const run = await runUntilExit({
        PORT: String(await freePort()),
        DATABASE_URL: testDb.url,
        WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 8).toString("base64"),
      });
      expectOneLineFailure(run, /WEBHOOK_SECRETS_KEY does not open the webhook secrets already stored .*npm run reseal:webhook-secrets$/);
    } finally {
      await testDb.drop();
    }
  }, 90_000);

  it("DATABASE_URL forms that cannot work", async () => {
    // The machine's PostgreSQL: a host, port and user that do work.
    const url = new URL(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
    {
      const server = `${url.protocol}//${url.username ? `${url.username}@` : ""}${url.host}`;
      const port = String(await freePort());
      const cases: [string, RegExp][] = [
        [server, /DATABASE_URL names no database/],
        [`${server}/`, /DATABASE_URL names no database/],
        [`${server}/coinplane_no_such_database_${process.pid}`, /does not exist/],
        [
          `${url.protocol}//${url.username ? `${url.username}@` : ""}127.0.0.1:1/coinplane`,
          /nothing accepts connections at 127\.0\.0\.1:1/,
        ],
        ["mysql://localhost/coinplane", /DATABASE_URL must be unset, pglite:memory, pglite:<dir>, or a postgresql:\/\/ URL/],
        ["postgresql://:5432/coinplane", /DATABASE_URL is not a valid URL/],
      ];
      for (const [databaseUrl, fragment] of cases) {
        const run = await runUntilExit({ PORT: port, DATABASE_URL: databaseUrl, DATABASE_CONNECT_TIMEOUT_MS: "3000" });
        expectOneLineFailure(run, fragment);
      }
    }
  }, 180_000);

  it("a PGlite folder another process holds; the lock goes with a clean stop", async () => {
    const folder = path.join(scratch, "pglite");
    const first = await startServerProcess({ databaseUrl: `pglite:${folder}`, env: BASE_ENV as Record<string, string> });
    try {
      expect(existsSync(path.join(folder, "coinplane.lock"))).toBe(true);
      const second = await runUntilExit({ PORT: String(await freePort()), DATABASE_URL: `pglite:${folder}` });
      expectOneLineFailure(second, new RegExp(`PGlite folder .* is in use by another Coinplane process \\(pid ${first.pid}\\)`));
      first.kill("SIGTERM");
      expect((await first.exited).code).toBe(0);
      expect(existsSync(path.join(folder, "coinplane.lock"))).toBe(false);
    } finally {
      await first.stop();
    }
  }, 120_000);
});
