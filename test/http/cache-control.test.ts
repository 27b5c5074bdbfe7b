// Cache-Control: no-store on every /api response — successes, replays, errors (400, 401, 404, 405, 429, 503) and the admin
// key-creation response that carries a secret — and not on what is meant to be cacheable (the published spec).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SwitchableRateLimiter, switchableRateLimiter } from "../helpers/switchable-rate-limiter.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES } from "../helpers/v2.ts";

let server: TestServer;
let call: ReturnType<typeof api>;
let admin: ReturnType<typeof api>;
let limiter: SwitchableRateLimiter;

beforeAll(async () => {
  limiter = switchableRateLimiter();
  server = await startTestServer({ rateLimiter: limiter });
  admin = api(server.url, server.adminToken);
  call = api(server.url, (await server.createKey({ organizationId: "org_cache", scopes: ALL_WRITE_SCOPES })).key);
});
afterAll(() => server?.close());

const expectNoStore = (res: { headers: Headers }) => expect(res.headers.get("cache-control")).toBe("no-store");

describe("Cache-Control: no-store", () => {
  it("on a v1 GET (200)", async () => {
    const res = await call("GET", "/api/v1/wallets");
    expect(res.status).toBe(200);
    expectNoStore(res);
  });

  it("on a v2 write and on its idempotent replay", async () => {
    const headers = { "idempotency-key": randomUUID() };
    const body = { parties: [{ role: "sender", name: "Alice Example", country: "GB" }] };
    const first = await call("POST", "/api/v2/agent/compliance/screen", body, headers);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expectNoStore(first);
    const replay = await call("POST", "/api/v2/agent/compliance/screen", body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    expectNoStore(replay);
  });

  it("on the admin key creation that carries the secret (201)", async () => {
    const res = await admin("POST", "/api/admin/keys", { organizationId: "org_cache", environment: "sandbox", scopes: ["wallets:read"] });
    expect(res.status).toBe(201);
    expect(res.json.key).toMatch(/^cp_sandbox_/);
    expectNoStore(res);
  });

  it.each([
    ["401 without a key (v1)", () => api(server.url)("GET", "/api/v1/wallets"), 401],
    ["401 with a wrong key (v2)", () => api(server.url, "cp_sandbox_wrong")("GET", "/api/v2/agent/providers"), 401],
    ["401 with a wrong admin token", () => api(server.url, "not-the-admin-token")("GET", "/api/admin/keys?organizationId=org_cache"), 401],
    ["404 from the operation lookup (unknown path)", () => call("GET", "/api/v2/agent/nothing-here"), 404],
    ["404 for an unknown resource", () => call("GET", "/api/v1/wallets/wal_doesnotexist"), 404],
    ["405 from the operation lookup", () => call("DELETE", "/api/v1/wallets"), 405],
    ["400 for a malformed JSON body", () => call("POST", "/api/v1/wallets", "{not json"), 400],
  ] as const)("on an error: %s", async (_name, request, status) => {
    const res = await request();
    expect(res.status).toBe(status);
    expectNoStore(res);
  });

  it.each([
    ["429 when the budget is spent", "exceeded", 429, "rate_limited"],
    ["503 when the limiter store is down", "down", 503, "rate_limit_unavailable"],
  ] as const)("on an error: %s", async (_name, mode, status, code) => {
    limiter.mode = mode;
    try {
      const res = await call("GET", "/api/v1/wallets");
      expect(res.status).toBe(status);
      expect(res.json.code).toBe(code);
      expectNoStore(res);
    } finally {
      limiter.mode = "allow";
    }
  });

  it("not on the published specification (outside /api)", async () => {
    const res = await api(server.url)("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBeNull();
  });
});
