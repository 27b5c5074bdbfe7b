// Runs the real server (`node --experimental-strip-types server/main.ts`, what `npm start` runs) as a child process, for
// the system tests: its own port, the environment given, stdout/stderr captured, waits until GET /readyz answers 200
// (migrations applied, database reachable). `node` is spawned directly (no CLI wrapper that forks) so `pid` is the server
// itself and signals reach it unrelayed.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodeFlagsOf } from "../../scripts/node-flags.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const ADMIN_TOKEN = "system-admin-token-0123456789";
export const SCHEDULER_SECRET = "system-scheduler-secret";
export const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
/** How `npm start` runs the TypeScript source (Node's own type stripping since issue 39, no loader). */
export const FROM_SOURCE = nodeFlagsOf("start", "server/main.ts", ROOT);

/** The smallest environment a server process (or an npm script) runs with in the system tests: no scheduler, no webhook
 * worker, warnings only; the admin token and webhook secrets key fixed. */
export const BARE_SERVER_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  NODE_ENV: "test",
  HOST: "127.0.0.1",
  ADMIN_TOKEN,
  WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 1).toString("base64"),
  SCHEDULER_INTERVAL_MS: "0",
  WEBHOOK_POLL_INTERVAL_MS: "0",
  LOG_LEVEL: "warn",
};

/** Polls `check` every 100 ms until it holds or `timeoutMs` passes. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): { stdout: string; stderr: string };
  kill(signal?: NodeJS.Signals): void;
  /** SIGKILL unless already gone; resolves once exited. */
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  port?: number;
  /** How long to wait for /readyz (default 120 s: several processes starting at once on a loaded 2-core machine are slow). */
  readyTimeoutMs?: number;
  /** The entry point (default server/main.ts; scripts/start-cluster.ts for the cluster). */
  script?: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [...FROM_SOURCE, options.script ?? "server/main.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      DATABASE_POOL_SIZE: "5",
      ADMIN_TOKEN,
      SCHEDULER_SECRET,
      SCHEDULER_INTERVAL_MS: "0",
      VALIDATE_RESPONSES: "true",
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "warn",
      RATE_LIMIT_PER_KEY: "100000",
      RATE_LIMIT_PER_ORG: "100000",
      // Many tests send 401s on purpose from one address; test/http/rate-limit.test.ts sets a small budget.
      RATE_LIMIT_AUTH_FAILURES: "100000",
      SHUTDOWN_TIMEOUT_MS: "10000",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const handle: ServerProcess = {
    url,
    port,
    pid: child.pid as number,
    child,
    exited,
    output: () => ({ stdout, stderr }),
    kill: (signal = "SIGTERM") => {
      if (!gone) child.kill(signal);
    },
    async stop() {
      if (!gone) child.kill("SIGKILL");
      await exited;
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (gone) throw new Error(`server exited before it was ready:\n${stdout}\n${stderr}`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) });
      if (res.status === 200) return handle;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await handle.stop();
  throw new Error(`server not ready after ${options.readyTimeoutMs ?? 120_000} ms:\n${stdout}\n${stderr}`);
}

/** A throwaway PostgreSQL database (TEST_DATABASE_URL) plus the server processes started on it; `close` ends them all. */
export interface SystemFixture {
  db: TestDatabase;
  servers: ServerProcess[];
  start(options?: Omit<ServerProcessOptions, "databaseUrl"> & { databaseUrl?: string }): Promise<ServerProcess>;
  close(): Promise<void>;
}

export async function createSystemFixture(): Promise<SystemFixture> {
  const db = await createTestDatabase();
  if (db.kind !== "postgres") throw new Error("test/system needs PostgreSQL: run it with --project postgres-serial (TEST_DATABASE_URL)");
  const servers: ServerProcess[] = [];
  return {
    db,
    servers,
    async start(options = {}) {
      const server = await startServerProcess({ databaseUrl: db.url, ...options });
      servers.push(server);
      return server;
    },
    async close() {
      await Promise.allSettled(servers.map((s) => s.stop()));
      await db.drop();
    },
  };
}

/** Creates an API key through the admin API of a running server. */
export async function createKey(
  server: { url: string },
  body: { organizationId: string; scopes: string[]; environment?: "sandbox" | "production"; actor?: string },
): Promise<string> {
  const res = await fetch(`${server.url}/api/admin/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ environment: "sandbox", ...body }),
  });
  if (res.status !== 201) throw new Error(`createKey failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

/** Creates a reviewed provider connection through the admin API. */
export async function connectProvider(
  server: { url: string },
  body: { organizationId: string; category: string; providerSlug?: string; config?: object; environment?: string },
): Promise<void> {
  const res = await fetch(`${server.url}/api/admin/connections`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ environment: "sandbox", providerSlug: "simulator", reviewed: true, ...body }),
  });
  if (res.status !== 201) throw new Error(`connect failed: ${res.status} ${await res.text()}`);
}
