// Rate limits: headers everywhere, 429 with Retry-After, shared budgets over Redis, 503 when the store fails.
import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../server/rate-limit/rate-limiter.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (up) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("redis-server did not start");
}

describe("rate limiting", () => {
  it("puts the budget headers on v1, v2 and metric responses and answers 429 with Retry-After when spent", async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_PER_KEY: "4", RATE_LIMIT_PER_ORG: "1000", RATE_LIMIT_WINDOW_SECONDS: "60" } });
    servers.push(server);
    const call = api(server.url, (await server.createKey({ scopes: ["wallets:read", "analytics:read", "fx:write"] })).key);
    const paths = ["/api/v1/wallets", "/api/metric/payments.count?range=7d", "/api/v2/agent/providers"];
    const remaining: number[] = [];
    for (const path of paths) {
      const res = await call("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("4");
      expect(res.headers.get("ratelimit-policy")).toBe('"default";q=4;w=60');
      expect(res.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual([3, 2, 1]);
    expect((await call("GET", "/api/v1/wallets")).status).toBe(200);
    const limitedV1 = await call("GET", "/api/v1/wallets");
    expect(limitedV1.status).toBe(429);
    expect(limitedV1.json.code).toBe("rate_limited");
    expect(Number(limitedV1.headers.get("retry-after"))).toBeGreaterThan(0);
    const limitedV2 = await call("GET", "/api/v2/agent/providers");
    expect(limitedV2.status).toBe(429);
    expect(limitedV2.json.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(limitedV2.headers.get("content-type")).toMatch(/application\/problem\+json/);
  });

  it("shares the per-organization budget between the organization's keys", async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_PER_KEY: "100", RATE_LIMIT_PER_ORG: "3" } });
    servers.push(server);
    const a = api(server.url, (await server.createKey({ scopes: ["wallets:read"] })).key);
    const b = api(server.url, (await server.createKey({ scopes: ["wallets:read"] })).key);
    const other = api(server.url, (await server.createKey({ organizationId: "org_else", scopes: ["wallets:read"] })).key);
    expect((await a("GET", "/api/v1/wallets")).status).toBe(200);
    expect((await b("GET", "/api/v1/wallets")).status).toBe(200);
    expect((await a("GET", "/api/v1/wallets")).status).toBe(200);
    expect((await b("GET", "/api/v1/wallets")).status).toBe(429);
    expect((await other("GET", "/api/v1/wallets")).status).toBe(200);
  });

  it("shares budgets across instances through Redis", async () => {
    const redisUrl = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
    const options = { perKey: 3, perOrganization: 100, windowSeconds: 60, redisUrl };
    const one = createRateLimiter(options);
    const two = createRateLimiter(options);
    const key = `key_${Date.now()}_${Math.random()}`;
    try {
      await one.ready();
      await two.ready();
      const results = [
        await one.consume(key, `org_${key}`),
        await two.consume(key, `org_${key}`),
        await one.consume(key, `org_${key}`),
        await two.consume(key, `org_${key}`),
      ];
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("answers 503 RATE_LIMIT_UNAVAILABLE (not 429, never fail-open) while Redis is down, and recovers", async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const server = await startTestServer({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    servers.push(server);
    const call = api(server.url, (await server.createKey({ scopes: ["wallets:read", "fx:write"] })).key);
    try {
      expect((await call("GET", "/api/v1/wallets")).status).toBe(200);
      redis.kill("SIGKILL");
      await new Promise((r) => setTimeout(r, 300));
      const v1 = await call("GET", "/api/v1/wallets");
      expect(v1.status).toBe(503);
      expect(v1.json.code).toBe("rate_limit_unavailable");
      const v2 = await call("GET", "/api/v2/agent/providers");
      expect(v2.status).toBe(503);
      expect(v2.json.code).toBe("RATE_LIMIT_UNAVAILABLE");
      expect(v2.headers.get("retry-after")).not.toBeNull();
      redis = await startRedis(port);
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await call("GET", "/api/v1/wallets")).status;
      }
      expect(status).toBe(200);
    } finally {
      redis.kill("SIGKILL");
    }
  });
});
