// `npm run start:cluster` (scripts/start-cluster.ts): refuses PGlite and a missing REDIS_URL; serves from several
// workers on one port; replaces a worker that dies; SIGTERM drains every worker and the primary exits 0.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFlagsOf } from "../../scripts/node-flags.ts";
import { createKey, createSystemFixture, REDIS_URL, ROOT, type ServerProcess, type SystemFixture } from "../helpers/server-process.ts";
import { api } from "../helpers/test-server.ts";

let fixture: SystemFixture;
let primary: ServerProcess;

beforeAll(async () => {
  fixture = await createSystemFixture();
  primary = await fixture.start({
    script: "scripts/start-cluster.ts",
    env: { CLUSTER_SIZE: "2", LOG_LEVEL: "info", REDIS_URL, RATE_LIMIT_KEY_PREFIX: `cp:test:${randomBytes(6).toString("hex")}` },
  });
}, 180_000);

afterAll(async () => {
  // A worker left behind by a failed test would keep the database open; the primary's SIGKILL does not reach it.
  for (const pid of workerPids()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await fixture?.close();
});

function workerPids(): number[] {
  if (!primary) return [];
  try {
    return execFileSync("pgrep", ["-P", String(primary.pid), "-f", "server/main.ts"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none (-f: only the workers, whatever else the primary starts)
  }
}

/** Runs start-cluster with `env` and returns its exit code and stderr (it must refuse before starting anything). */
function refusal(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...nodeFlagsOf("start:cluster", "scripts/start-cluster.ts", ROOT), "scripts/start-cluster.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ADMIN_TOKEN: "x".repeat(32), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
}

describe("start:cluster", () => {
  it("refuses PGlite and a missing REDIS_URL with a clear message", async () => {
    const [pglite, noRedis] = await Promise.all([
      refusal({ DATABASE_URL: "pglite:memory", REDIS_URL }),
      refusal({ DATABASE_URL: fixture.db.url }),
    ]);
    expect(pglite.code).toBe(1);
    expect(pglite.stderr).toMatch(/PGlite is an embedded, single-process database/);
    expect(noRedis.code).toBe(1);
    expect(noRedis.stderr).toMatch(/REDIS_URL is required/);
  });

  it("serves from two workers on one port and replaces a worker that dies", async () => {
    const call = api(primary.url, await createKey(primary, { organizationId: "org_sys_cluster", scopes: ["wallets:write"] }));
    const before = workerPids();
    expect(before.length).toBe(2);
    for (let i = 0; i < 6; i++) expect((await call("GET", "/api/v1/wallets")).status).toBe(200);

    const [victim] = before;
    process.kill(victim as number, "SIGKILL");
    let after: number[] = [];
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = workerPids();
      if (after.length === 2 && !after.includes(victim as number)) break;
    }
    expect(after.length).toBe(2);
    expect(after).not.toContain(victim);
    // Once the replacement listens (a third "coinplane listening"), both workers serve.
    const listening = () => primary.output().stdout.split('"coinplane listening"').length - 1;
    for (let i = 0; i < 600 && listening() < 3; i++) await new Promise((r) => setTimeout(r, 100));
    expect(listening()).toBe(3);
    for (let i = 0; i < 10; i++) {
      const res = await call("POST", "/api/v1/wallets", { chain: "base", label: `cluster ${i}` });
      expect(res.status, res.text).toBe(201);
    }
    expect(primary.output().stderr).toMatch(/worker \d+ died \(SIGKILL\); starting another/);
  }, 120_000);

  it("SIGTERM drains every worker and the primary exits 0", async () => {
    const workers = workerPids();
    expect(workers.length).toBe(2);
    primary.kill("SIGTERM");
    expect(await primary.exited).toEqual({ code: 0, signal: null });
    expect(primary.output().stdout).toContain("start:cluster: all workers stopped");
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
