// `npm run smoke`: the compiled server (dist/, from `npm run build`) on the Node that runs this script, as production
// starts it: migrate a fresh PGlite folder with the compiled migrate script, start `node dist/server/main.js` with
// NODE_ENV=production, one write per surface (admin, v1, v2) and a read of the metrics surface and of GET /metrics,
// then SIGTERM, which must drain and exit 0. CI runs it on the Node line the suite does not run on (.ci/run).
// Prints one line per check and `N passed, N failed` last; exits 1 on any failure.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const node = process.execPath;
const ADMIN_TOKEN = "smoke-admin-token-0123456789";
const METRICS_TOKEN = "smoke-metrics-token-0123456789";

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail = ""): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok" : "FAILED"} - ${name}${ok || !detail ? "" : `: ${detail}`}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function call(base: string, method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
}

if (!existsSync(path.join(root, "dist/server/main.js"))) {
  console.error("smoke: dist/ is missing; run npm run build first");
  process.exit(1);
}
console.log(`smoke: Node ${process.version}, ${path.relative(process.cwd(), path.join(root, "dist")) || "dist"}`);
const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-smoke-"));
const port = await freePort();
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  PORT: String(port),
  DATABASE_URL: `pglite:${scratch}/pglite`,
  ADMIN_TOKEN,
  METRICS_TOKEN,
  WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 3).toString("base64"),
  SCHEDULER_SECRET: "smoke-scheduler-secret",
  LOG_LEVEL: "warn",
};
let server: ChildProcess | undefined;
try {
  const migrated = execFileSync(node, ["dist/scripts/migrate.js"], { cwd: root, env, encoding: "utf8" });
  check("migrate applies to a fresh folder", /schema up to date|migration\(s\) applied/.test(migrated), migrated);
  const status = execFileSync(node, ["dist/scripts/migrate.js", "status"], { cwd: root, env, encoding: "utf8" });
  check("migrate status: up to date", /schema up to date$/m.test(status), status);

  const child = spawn(node, ["dist/server/main.js"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  server = child;
  let output = "";
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let ready = false;
  while (!ready && Date.now() < deadline && child.exitCode === null) {
    ready = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  check("starts and is ready", ready, output);
  const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  check("runs node dist/server/main.js with no loader", cmdline.slice(1).join(" ") === "dist/server/main.js", cmdline.join(" "));

  const key = await call(base, "POST", "/api/admin/keys", ADMIN_TOKEN, {
    organizationId: "org_smoke",
    environment: "sandbox",
    scopes: ["wallets:write", "payments:write", "analytics:read", "compliance:write"],
  });
  check("admin: creates a key", key.status === 201, key.text);
  const apiKey = key.json?.key as string;
  const wallet = await call(base, "POST", "/api/v1/wallets", apiKey, { chain: "base", label: "smoke" });
  check("v1: creates a wallet", wallet.status === 201, wallet.text);
  const screen = await call(base, "POST", "/api/v2/agent/compliance/screen", apiKey, {
    parties: [{ role: "sender", name: "Alice Example", country: "GB" }],
  });
  check("v2: screens a party", screen.status === 200, screen.text);
  const metric = await call(base, "GET", "/api/metric/payments.volume?range=7d", apiKey);
  check("metrics surface: reads a series", metric.status === 200, metric.text);
  const scrape = await call(base, "GET", "/metrics", METRICS_TOKEN);
  check(
    "GET /metrics counts the wallet",
    scrape.status === 200 &&
      /coinplane_http_request_duration_seconds_count\{operation="createWallet",status_class="2xx"\} 1/.test(scrape.text),
    scrape.text.slice(0, 300),
  );

  child.kill("SIGTERM");
  const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r("timeout"), 15_000))]);
  check("SIGTERM: drains and exits 0", code === 0, `exit ${code}\n${output}`);
} catch (error) {
  check("smoke run", false, error instanceof Error ? error.message : String(error));
} finally {
  if (server && server.exitCode === null) server.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
