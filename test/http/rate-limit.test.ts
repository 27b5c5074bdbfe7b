// Rate limits: headers everywhere, 429 with Retry-After, shared budgets over Redis, 503 when the store fails; sliding
// windows (never more than the limit in any window-length interval); authentication failures limited per address.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimiter, type RateLimitOptions } from "../../server/rate-limit/rate-limiter.ts";
import { signIn } from "../helpers/members.ts";
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

  it("answers 503 RATE_LIMIT_UNAVAILABLE (not 429, never fail-open) while Redis is down, sign-ins too, and recovers", async () => {
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
      // The sign-in throttle spends its budgets in the same store: a sign-in is refused too, before any password check.
      const signingIn = await signIn(server, "nobody@people.example", "wrong-password-1234");
      expect(signingIn.status).toBe(503);
      expect(((await signingIn.json()) as { code: string }).code).toBe("RATE_LIMIT_UNAVAILABLE");
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

const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
const wrongKey = () => `cp_sandbox_${randomBytes(32).toString("base64url").replace(/[-_]/g, "x").slice(0, 43)}`;

describe("authentication failures", () => {
  it("200 wrong keys from one address: 401 up to the limit, 429 after it; a valid key from the same address still gets 200", async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_AUTH_FAILURES: "20", RATE_LIMIT_WINDOW_SECONDS: "60" } });
    servers.push(server);
    // Successful authentications (the admin call creating the key) do not spend the failure budget.
    const valid = api(server.url, (await server.createKey({ scopes: ["wallets:read"] })).key);
    const paths = ["/api/v1/wallets", "/api/v2/agent/providers"];
    const results = [];
    for (let batch = 0; batch < 4; batch++) {
      results.push(
        ...(await Promise.all(Array.from({ length: 50 }, (_, i) => api(server.url, wrongKey())("GET", paths[i % 2] as string)))),
      );
    }
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length, statuses.join(",")).toBe(20);
    expect(statuses.filter((s) => s === 429).length).toBe(180);
    // The first batch of 50 spends the budget of 20 (which 20 of its concurrent requests win depends on their timing);
    // every later batch is refused before any key lookup counts.
    expect(statuses.slice(0, 50).filter((s) => s === 401).length).toBe(20);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
    for (const r of results.filter((x) => x.status === 429)) {
      const retryAfter = Number(r.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.headers.get("x-ratelimit-limit")).toBe("20");
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(r.headers.get("x-ratelimit-reset")).toBe(String(retryAfter));
      expect(r.headers.get("ratelimit-policy")).toBe('"auth-failures";q=20;w=60');
      expect(r.headers.get("ratelimit")).toBe(`"auth-failures";r=0;t=${retryAfter}`);
      expect(r.json.code).toBe(r.json.type ? "RATE_LIMIT_EXCEEDED" : "rate_limited");
    }
    expect(results.find((r) => r.status === 429 && r.json.type)?.headers.get("content-type")).toMatch(/application\/problem\+json/);
    // The same address with a valid key: 200, with its own per-key budget in the headers.
    for (const path of paths) {
      const ok = await valid("GET", path);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-ratelimit-limit")).toBe("100000");
      expect(ok.headers.get("ratelimit-policy")).toBe('"default";q=100000;w=60');
    }
    // Missing key, wrong admin token: the same address budget; the right admin token still works.
    expect((await api(server.url)("GET", "/api/v1/wallets")).status).toBe(429);
    const admin = (token: string) => api(server.url, token)("GET", "/api/admin/keys?organizationId=org_test");
    expect((await admin("not-the-admin-token")).status).toBe(429);
    expect((await admin(server.adminToken)).status).toBe(200);
  });

  it("a revoked key counts as a failure; the failure budget does not touch the key budgets", async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_AUTH_FAILURES: "2", RATE_LIMIT_PER_KEY: "3" } });
    servers.push(server);
    const { id, key } = await server.createKey({ scopes: ["wallets:read"] });
    const call = api(server.url, key);
    expect((await call("GET", "/api/v1/wallets")).status).toBe(200);
    const revoke = await api(server.url, server.adminToken)("DELETE", `/api/admin/keys/${id}`);
    expect(revoke.status).toBeLessThan(300);
    expect((await call("GET", "/api/v1/wallets")).status).toBe(401);
    expect((await call("GET", "/api/v1/wallets")).status).toBe(401);
    expect((await call("GET", "/api/v1/wallets")).status).toBe(429);
    const other = api(server.url, (await server.createKey({ scopes: ["wallets:read"] })).key);
    const ok = await other("GET", "/api/v1/wallets");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("2");
  });
});

describe("sliding window (no fixed-window boundary)", () => {
  // Time is driven by the limiter's clock, on both stores. T is a multiple of the window: a fixed window would start a
  // fresh budget at T.
  const WINDOW_MS = 60_000;
  const T = Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS + 10 * WINDOW_MS;
  const stores: [string, Partial<RateLimitOptions>][] = [
    ["memory", {}],
    ["redis", { redisUrl: REDIS_URL }],
  ];

  it.each(stores)(
    "%s: a full budget just before a boundary and 5 more just after → 1 passes, not 5; room returns a window later",
    async (_n, store) => {
      // One request at the start of a window (a fixed window counting from the first request would reset one window
      // later, at T + 1), four at its very end (a clock-aligned fixed window resets at T), five just after T.
      let now = T - WINDOW_MS + 1;
      const limiter = createRateLimiter({
        perKey: 5,
        perOrganization: 1000,
        windowSeconds: 60,
        keyPrefix: `cp:test:${randomBytes(6).toString("hex")}`,
        now: () => now,
        ...store,
      });
      try {
        await limiter.ready();
        const before = [await limiter.consume("key_b", "org_b")];
        now = T - 1;
        for (let i = 0; i < 4; i++) before.push(await limiter.consume("key_b", "org_b"));
        expect(before.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
        expect(before.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
        now = T + 1; // across both boundaries: only the first request has left the last 60 s
        const after = [];
        for (let i = 0; i < 5; i++) after.push(await limiter.consume("key_b", "org_b"));
        expect(after.map((d) => d.allowed)).toEqual([true, false, false, false, false]);
        // The four at T − 1 leave the window at T − 1 + 60 s: 59.998 s from now → Retry-After 60.
        expect(after[1]?.resetSeconds).toBe(60);
        expect(after[1]?.remaining).toBe(0);
        now = T - 1 + WINDOW_MS - 1;
        expect((await limiter.consume("key_b", "org_b")).allowed).toBe(false);
        now = T - 1 + WINDOW_MS; // the four have left (the window is (now − 60 s, now]); the one at T + 1 has not
        const back = await limiter.consume("key_b", "org_b");
        expect(back.allowed).toBe(true);
        expect(back.remaining).toBe(3);
      } finally {
        await limiter.close();
      }
    },
  );

  // The rate-limit step runs on every API-key request: in memory its verdict costs no promise (middleware/rate-limit.ts
  // completes synchronously then); Redis answers with one. The verdicts are the same.
  it("memory answers at once, Redis with a promise, and both give the same verdicts", async () => {
    const options = { perKey: 2, perOrganization: 1000, windowSeconds: 60, now: () => T };
    const memory = createRateLimiter({ ...options, keyPrefix: `cp:test:${randomBytes(6).toString("hex")}` });
    const redis = createRateLimiter({ ...options, keyPrefix: `cp:test:${randomBytes(6).toString("hex")}`, redisUrl: REDIS_URL });
    try {
      await redis.ready();
      for (let i = 0; i < 3; i++) {
        const atOnce = memory.consume("key_p", "org_p");
        const later = redis.consume("key_p", "org_p");
        expect(atOnce).not.toBeInstanceOf(Promise);
        expect(later).toBeInstanceOf(Promise);
        expect(await later).toEqual(atOnce);
      }
      expect((memory.consume("key_p", "org_p") as { allowed: boolean }).allowed).toBe(false);
    } finally {
      await memory.close();
      await redis.close();
    }
  });

  it.each(stores)(
    "%s: a client trying every 250 ms for 3 windows never gets more than the limit into any 60 s interval",
    async (_n, store) => {
      let now = T;
      const options = {
        perKey: 7,
        perOrganization: 1000,
        windowSeconds: 60,
        authFailures: 4,
        keyPrefix: `cp:test:${randomBytes(6).toString("hex")}`,
      };
      const limiter = createRateLimiter({ ...options, now: () => now, ...store });
      try {
        await limiter.ready();
        const keyAccepted: number[] = [];
        const authAccepted: number[] = [];
        for (now = T - WINDOW_MS / 2; now < T + 3 * WINDOW_MS; now += 250) {
          if ((await limiter.consume("key_s", "org_s")).allowed) keyAccepted.push(now);
          if ((await limiter.authFailures?.fail("192.0.2.7"))?.allowed) authAccepted.push(now);
        }
        for (const [accepted, limit] of [
          [keyAccepted, options.perKey],
          [authAccepted, options.authFailures],
        ] as const) {
          for (const t of accepted) expect(accepted.filter((u) => u > t - WINDOW_MS && u <= t).length).toBeLessThanOrEqual(limit);
          // …and the budget is usable: the limit per window, over 3.5 windows.
          expect(accepted.length).toBeGreaterThanOrEqual(3 * limit);
        }
      } finally {
        await limiter.close();
      }
    },
  );
});
