// Redis faults against a real server process whose REDIS_URL goes through a cuttable TCP proxy: while Redis is cut off,
// keyed requests answer 503 RATE_LIMIT_UNAVAILABLE (never fail open: nothing executes, nothing is written, the
// Idempotency-Key is not taken); once restored the same process serves again and the same key executes exactly once.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createKey, createSystemFixture, REDIS_URL, type ServerProcess, type SystemFixture } from "../helpers/server-process.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";
import { api } from "../helpers/test-server.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";

const ORG = "org_sys_redisfault";

let fixture: SystemFixture;
let redisProxy: TcpProxy;
let server: ServerProcess;
let direct: pg.Client;
let call: ReturnType<typeof api>;
let v1: ReturnType<typeof api>;

beforeAll(async () => {
  fixture = await createSystemFixture();
  const redis = new URL(REDIS_URL);
  redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
  server = await fixture.start({
    env: {
      REDIS_URL: redisProxy.url(REDIS_URL),
      // This run's own budgets, whatever else shares the Redis.
      RATE_LIMIT_KEY_PREFIX: `cp:test:${randomBytes(6).toString("hex")}`,
      RATE_LIMIT_PER_KEY: "1000",
    },
  });
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
  call = api(server.url, await createKey(server, { organizationId: ORG, scopes: ["payments:write"] }));
  v1 = api(server.url, await createKey(server, { organizationId: ORG, scopes: ["wallets:read"] }));
}, 180_000);

afterEach(() => redisProxy?.restore());

afterAll(async () => {
  await direct?.end().catch(() => {});
  await redisProxy?.close();
  await fixture?.close();
});

const count = async (sql: string, params: unknown[]) => Number((await direct.query(sql, params)).rows[0].count);

describe("Redis cut off", () => {
  it("503 RATE_LIMIT_UNAVAILABLE with Retry-After, nothing executed; restored → served again, the key executes once", async () => {
    const warm = await call("POST", BANK_TRANSFER, sepaTransfer("SYS-REDIS-WARM"), { "idempotency-key": "redis-warm" });
    expect(warm.status, warm.text).toBe(201);
    expect(warm.headers.get("x-ratelimit-limit")).toBe("1000");

    const reference = `SYS-REDIS-${randomBytes(4).toString("hex").toUpperCase()}`;
    const key = `redis-${reference}`;
    const transfers = () => count(`SELECT count(*) FROM "BankTransfer" WHERE reference = $1`, [reference]);
    const records = () => count(`SELECT count(*) FROM "IdempotencyRecord" WHERE key = $1`, [key]);
    const decisions = () => count(`SELECT count(*) FROM "ComplianceDecision" WHERE "organizationId" = $1`, [ORG]);
    const decisionsBefore = await decisions();
    redisProxy.cut();

    for (let i = 0; i < 3; i++) {
      const res = await call("POST", BANK_TRANSFER, sepaTransfer(reference), { "idempotency-key": key });
      expect(res.status, res.text).toBe(503);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(res.json).toMatchObject({
        type: "https://docs.coinplane.dev/errors/rate_limit_unavailable",
        status: 503,
        code: "RATE_LIMIT_UNAVAILABLE",
        requestId: expect.any(String),
      });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const sandbox = await v1("GET", "/api/v1/wallets");
    expect(sandbox.status).toBe(503);
    expect(sandbox.json).toEqual({ error: expect.any(String), code: "rate_limit_unavailable", requestId: expect.any(String) });
    expect(Number(sandbox.headers.get("retry-after"))).toBeGreaterThan(0);
    // Never fail open: no transfer, no screening, and the Idempotency-Key was never reserved.
    expect(await transfers()).toBe(0);
    expect(await records()).toBe(0);
    expect(await decisions()).toBe(decisionsBefore);
    // Liveness and readiness do not depend on Redis.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    redisProxy.restore();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await v1("GET", "/api/v1/wallets")).status;
    }
    expect(status).toBe(200);
    const retried = await call("POST", BANK_TRANSFER, sepaTransfer(reference), { "idempotency-key": key });
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(Number(retried.headers.get("x-ratelimit-remaining"))).toBeLessThan(1000);
    const replay = await call("POST", BANK_TRANSFER, sepaTransfer(reference), { "idempotency-key": key });
    expect(replay.text).toBe(retried.text);
    expect(await transfers()).toBe(1);
    expect(await records()).toBe(1);
  });
});
