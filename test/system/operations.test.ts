// The commands of README "Operations", run as an operator runs them: the compiled start through npm, npm run migrate
// (status, apply; a start with MIGRATE_ON_START=false refusing a schema behind it), backups (pg_dump / pg_restore, a copy
// of a stopped PGlite folder), the webhook secrets key's reseal, and the long-running scripts stopping on SIGTERM to npm.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BARE_SERVER_ENV, createKey, freePort, ROOT, startServerProcess, waitFor } from "../helpers/server-process.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-operations-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BASE_ENV = BARE_SERVER_ENV;

/** `npm run <script>` in the repository; resolves with its exit code and output (never rejects). */
async function npm(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npm", ["run", "-s", ...args], { cwd: ROOT, env: { ...BASE_ENV, ...env }, timeout: 300_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** True when `url` answers below 500 (a starting server's 503 is not an answer yet). */
const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
    (res) => res.status < 500,
    () => false,
  );

/** Starts `npm run <script>`, waits until `url` answers, sends `signal` to npm, and checks that nothing answers after. */
async function stopsOnSignalToNpm(script: string, env: Record<string, string>, url: string): Promise<void> {
  const child: ChildProcess = spawn("npm", ["run", script], { cwd: ROOT, env: { ...BASE_ENV, ...env } });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    expect(await waitFor(() => answers(url), 120_000), output).toBe(true);
    child.kill("SIGTERM");
    expect(
      await waitFor(
        async () =>
          !(await fetch(url).then(
            () => true,
            () => false,
          )),
        10_000,
      ),
      output,
    ).toBe(true);
    await exited;
  } finally {
    child.kill("SIGKILL");
  }
}

describe("the compiled start", () => {
  beforeAll(async () => {
    const build = await npm(["build"], {});
    expect(build.code, build.stderr).toBe(0);
    expect(build.stdout).toMatch(/^build: done in/m);
  }, 300_000);

  it("npm run start:prod: a fresh folder starts from the build's template; SIGTERM to npm stops it", async () => {
    const port = await freePort();
    const folder = path.join(scratch, "prod");
    await stopsOnSignalToNpm(
      "start:prod",
      { PORT: String(port), DATABASE_URL: `pglite:${folder}/pglite`, NODE_ENV: "production", METRICS_TOKEN: "m-0123456789" },
      `http://127.0.0.1:${port}/healthz`,
    );
    // What the start printed is checked by the smoke test (npm run smoke, CI on the other Node line); here, that the
    // folder it made came from the template: the migration status agrees.
    const status = await npm(["migrate", "--", "status"], { DATABASE_URL: `pglite:${folder}/pglite` });
    expect(status.code, status.stdout + status.stderr).toBe(0);
    expect(status.stdout).toMatch(/schema up to date$/m);
  }, 180_000);

  it("npm run smoke passes on this Node", async () => {
    const smoke = await npm(["smoke"], {});
    expect(smoke.code, smoke.stdout).toBe(0);
    expect(smoke.stdout).toMatch(/^smoke: \d+ passed, 0 failed$/m);
  }, 180_000);
});

describe("scripts/node-line.sh", () => {
  it("names the running Node's own folder when it is already the line asked for (CI fetches the other line)", async () => {
    const major = process.versions.node.split(".")[0] as string;
    const { stdout } = await run("bash", ["scripts/node-line.sh", major], {
      cwd: ROOT,
      env: { ...BASE_ENV, PATH: `${path.dirname(process.execPath)}:${BASE_ENV.PATH}` },
    });
    expect(stdout.trim()).toBe(path.dirname(process.execPath));
  });
});

describe("npm run migrate", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    if (db.kind !== "postgres") throw new Error("run with --project postgres-serial");
  });
  afterAll(() => db?.drop());

  it("status says pending (exit 1), a start with MIGRATE_ON_START=false refuses, apply applies, status is clean", async () => {
    const before = await npm(["migrate", "--", "status"], { DATABASE_URL: db.url });
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^pending {3}20261122000000_init$/m);

    const refused = await startServerProcess({ databaseUrl: db.url, env: { MIGRATE_ON_START: "false" }, readyTimeoutMs: 60_000 }).then(
      (server) => server.stop().then(() => "started"),
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/coinplane: cannot start: .*migration\(s\) not applied .*run `npm run migrate` first/);

    const apply = await npm(["migrate"], { DATABASE_URL: db.url });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/^applied 20261122000000_init$/m);
    const after = await npm(["migrate", "--", "status"], { DATABASE_URL: db.url });
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/schema up to date$/m);
    expect(after.stdout).not.toMatch(/^pending/m);

    const server = await startServerProcess({ databaseUrl: db.url, env: { MIGRATE_ON_START: "false" } });
    await server.stop();
  }, 240_000);
});

describe("backups", () => {
  it("PostgreSQL: pg_dump, pg_restore into a new database, and the data answers there", async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    try {
      const first = await startServerProcess({ databaseUrl: source.url, env: BASE_ENV });
      const key = await createKey(first, { organizationId: "org_backup", scopes: ["wallets:write"] });
      const wallet = await fetch(`${first.url}/api/v1/wallets`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ chain: "base", label: "backed up" }),
      }).then((r) => r.json() as Promise<{ id: string }>);
      await first.stop();
      const dump = path.join(scratch, "coinplane.dump");
      await run("pg_dump", ["--format=custom", `--file=${dump}`, source.url]);
      await run("pg_restore", ["--no-owner", `--dbname=${target.url}`, dump]);
      const restored = await startServerProcess({ databaseUrl: target.url, env: BASE_ENV });
      try {
        const res = await fetch(`${restored.url}/api/v1/wallets/${wallet.id}`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { label: string }).label).toBe("backed up");
      } finally {
        await restored.stop();
      }
    } finally {
      await source.drop();
      await target.drop();
    }
  }, 240_000);

  it("PGlite: a copy of the stopped folder starts with the data and the kept secrets", async () => {
    const folder = path.join(scratch, "pglite-backup");
    const env = { ...BASE_ENV, ADMIN_TOKEN: "", WEBHOOK_SECRETS_KEY: "" };
    const first = await startServerProcess({ databaseUrl: `pglite:${folder}/pglite`, env });
    const adminToken = (await import("node:fs")).readFileSync(path.join(folder, "admin-token"), "utf8").trim();
    const res = await fetch(`${first.url}/api/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ organizationId: "org_backup", environment: "sandbox", scopes: ["wallets:read"] }),
    });
    expect(res.status).toBe(201);
    const { key } = (await res.json()) as { key: string };
    first.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    const copy = path.join(scratch, "pglite-restored");
    cpSync(folder, copy, { recursive: true });
    const restored = await startServerProcess({ databaseUrl: `pglite:${copy}/pglite`, env });
    try {
      // The copy's admin-token file came along: the same operator token, and the key made before the backup works.
      expect((await fetch(`${restored.url}/api/v1/wallets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const keys = await fetch(`${restored.url}/api/admin/keys?organizationId=org_backup`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(keys.status).toBe(200);
    } finally {
      await restored.stop();
    }
  }, 240_000);
});

describe("the webhook secrets key's reseal", () => {
  it("npm run reseal:webhook-secrets needs both keys, moves endpoint secrets to the new one, and finds nothing left on a second run", async () => {
    const db = await createTestDatabase();
    const oldKey = Buffer.alloc(32, 1).toString("base64");
    const newKey = Buffer.alloc(32, 2).toString("base64");
    try {
      const before = await startServerProcess({ databaseUrl: db.url, env: { ...BASE_ENV, WEBHOOK_SECRETS_KEY: oldKey } });
      const key = await createKey(before, { organizationId: "org_reseal", scopes: ["webhooks:write"] });
      const created = await fetch(`${before.url}/api/v2/agent/webhook-endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": "reseal-endpoint-1" },
        body: JSON.stringify({ url: "https://hooks.example.com/reseal", enabledEvents: ["*"] }),
      });
      expect(created.status).toBe(201);
      await before.stop();
      const missing = await npm(["reseal:webhook-secrets"], { DATABASE_URL: db.url, WEBHOOK_SECRETS_KEY: newKey });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/WEBHOOK_SECRETS_KEY_PREVIOUS/);
      const resealed = await npm(["reseal:webhook-secrets"], {
        DATABASE_URL: db.url,
        WEBHOOK_SECRETS_KEY: newKey,
        WEBHOOK_SECRETS_KEY_PREVIOUS: oldKey,
      });
      expect(resealed.code, resealed.stderr).toBe(0);
      expect(resealed.stdout).toMatch(/^reseal: 1 endpoint\(s\) resealed under WEBHOOK_SECRETS_KEY$/m);
      const again = await npm(["reseal:webhook-secrets"], {
        DATABASE_URL: db.url,
        WEBHOOK_SECRETS_KEY: newKey,
        WEBHOOK_SECRETS_KEY_PREVIOUS: oldKey,
      });
      expect(again.stdout).toMatch(/^reseal: 0 endpoint\(s\) resealed/m);
    } finally {
      await db.drop();
    }
  }, 240_000);
});

describe("long-running scripts stop on SIGTERM to npm; samples:setup fails visibly", () => {
  it("npm run mock", async () => {
    const port = await freePort();
    await stopsOnSignalToNpm("mock", { PORT: String(port) }, `http://127.0.0.1:${port}/api/v1/wallets`);
  }, 180_000);

  it("samples:setup against no server: names the URL, and eval fails", async () => {
    const port = await freePort();
    const result = await run("bash", ["-c", 'eval "$(npm run -s samples:setup)"; echo "eval status $?"'], {
      cwd: ROOT,
      env: { ...BASE_ENV, COINPLANE_URL: `http://127.0.0.1:${port}` },
    });
    expect(result.stdout.trim()).toBe("eval status 1");
    expect(result.stderr).toContain(`cannot reach http://127.0.0.1:${port}/api/admin/keys: ECONNREFUSED`);
  }, 120_000);
});
