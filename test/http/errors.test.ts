// The error contract: every malformed request gets a clear 4xx in its surface's shape (never a 500), request ids,
// rate-limit headers, and no internals in a 500.
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger.ts";
import { errorHandler } from "../../server/middleware/error-handler.ts";
import { requestIdAndLogger } from "../../server/middleware/request-id.ts";
import { createMetrics } from "../../server/observability/metrics.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { exampleBody, type SpecOperation, specOperations } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_errors";
const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const LIMIT = 100 * 1024;
const V1_POST = "/api/v1/wallets";
const V2_POST = "/api/v2/agent/payments/bank-transfer";
const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;

type Res = Awaited<ReturnType<ReturnType<typeof api>>>;

let server: TestServer;
let call: ReturnType<typeof api>;
let anonymous: ReturnType<typeof api>;
let bankTransfer: Record<string, unknown>;

beforeAll(async () => {
  server = await startTestServer();
  const key = await server.createKey({ organizationId: ORG, scopes: ["wallets:write", "payments:write", "analytics:read", "cards:read"] });
  call = api(server.url, key.key);
  anonymous = api(server.url);
  const op = specOperations(loadSpec()).find((o) => o.operation.operationId === "createBankTransfer") as SpecOperation;
  bankTransfer = exampleBody(op, ORG) as Record<string, unknown>;
});
afterAll(() => server?.close());

const idem = () => ({ "idempotency-key": `errors-${Math.random().toString(36).slice(2)}` });

function expectV1(res: Res, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.json).toMatchObject({ error: expect.any(String), code, requestId: res.headers.get("x-request-id") });
  expect(Object.keys(res.json).sort()).toEqual(res.json.errors ? ["code", "error", "errors", "requestId"] : ["code", "error", "requestId"]);
}

function expectProblem(res: Res, status: number, code: string, path: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({
    type: `https://docs.coinplane.dev/errors/${code.toLowerCase()}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: path,
    code,
    requestId: res.headers.get("x-request-id"),
  });
}

describe("malformed JSON → 400", () => {
  const bodies = [
    ["truncated object", '{"chain":'],
    ["trailing comma", '{"chain":"base",}'],
    ["single quotes", "{'chain':'base'}"],
    ["top-level null (strict JSON bodies)", "null"],
    ["top-level string", '"base"'],
    ["not JSON at all", "chain=base"],
  ];

  it.each(bodies)("v1 %s → invalid_request", async (_name, body) => {
    const res = await call("POST", V1_POST, body);
    expectV1(res, 400, "invalid_request");
    expect(res.json.errors).toEqual([{ path: "/body", message: expect.any(String) }]);
  });

  it.each(bodies)("v2 %s → VALIDATION_ERROR problem+json", async (_name, body) => {
    const res = await call("POST", V2_POST, body, idem());
    expectProblem(res, 400, "VALIDATION_ERROR", V2_POST);
    expect(res.json.errors).toEqual([{ path: "/body", message: expect.any(String) }]);
  });

  it("a corrupt gzip body → 400, not 500", async () => {
    const res = await call("POST", V1_POST, '{"chain":"base"}', { "content-encoding": "gzip" });
    expectV1(res, 400, "invalid_request");
  });

  it("a valid gzip body is accepted", async () => {
    const res = await fetch(`${server.url}${V1_POST}`, {
      method: "POST",
      headers: { authorization: (await keyHeader()).authorization, "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipSync(Buffer.from('{"chain":"base"}')),
    });
    expect(res.status).toBe(201);
  });
});

async function keyHeader() {
  const { key } = await server.createKey({ organizationId: ORG, scopes: ["wallets:write"] });
  return { authorization: `Bearer ${key}` };
}

describe("unknown fields, wrong types and unstorable values → 400 with the offending path", () => {
  it.each([
    ["unknown field", { chain: "base", colour: "red" }, "/body/colour"],
    ["wrong type", { chain: 1 }, "/body/chain"],
    ["array instead of object", [{ chain: "base" }], "/body"],
    ["NUL character in a string", { chain: "base", label: "a\u0000b" }, "/body/label"],
    ["unpaired surrogate", '{"chain":"base","label":"\\ud800"}', "/body/label"],
  ])("v1 %s", async (_name, body, path) => {
    const res = await call("POST", V1_POST, body);
    expectV1(res, 400, "invalid_request");
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("v1 NUL in a metadata key of a payment", async () => {
    const body = { amount: "1", stablecoin: "USDC", chain: "base", toAddress: EVM, metadata: { "k\u0000": "v" } };
    expectV1(await call("POST", "/api/v1/payments", body), 400, "invalid_request");
  });

  it.each([
    ["unknown field", { zzz: 1 }, "/body/zzz"],
    ["wrong type", { amount: 1250 }, "/body/amount"],
    ["NUL character", { reference: "inv\u0000" }, "/body/reference"],
  ])("v2 %s", async (_name, patch, path) => {
    const res = await call("POST", V2_POST, { ...bankTransfer, ...patch }, idem());
    expectProblem(res, 400, "VALIDATION_ERROR", V2_POST);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("a body nested deeper than 64 levels → 400 (v2 problem)", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const res = await call("POST", V2_POST, `{"amount":"1","source":${deep}}`, idem());
    expectProblem(res, 400, "VALIDATION_ERROR", V2_POST);
  });

  it.each([
    ["NUL", "/api/v1/wallets/wal_%00"],
    ["invalid percent-encoding", "/api/v1/wallets/%E0%A4%A"],
    ["encoded lone surrogate", "/api/v1/payments/%ED%A0%80"],
  ])("a path parameter with %s → 400", async (_name, path) => {
    expectV1(await call("GET", path), 400, "invalid_request");
  });

  it("a v2 path parameter with invalid percent-encoding → 400 problem", async () => {
    expectProblem(await call("GET", "/api/v2/agent/cards/%ZZ"), 400, "VALIDATION_ERROR", "/api/v2/agent/cards/%ZZ");
  });
});

describe("400 on every v1 endpoint (and metrics), in the v1 shape", () => {
  const longId = "x".repeat(256);
  it.each([
    ["POST", "/api/v1/wallets", { chain: "dogecoin" }, "/body/chain"],
    ["GET", "/api/v1/wallets?limit=0", undefined, "/query/limit"],
    ["GET", `/api/v1/wallets/${longId}`, undefined, "/params/id"],
    ["GET", `/api/v1/wallets/${longId}/balance`, undefined, "/params/id"],
    ["POST", "/api/v1/payments", { amount: "1.0000001", stablecoin: "USDC", chain: "base", toAddress: EVM }, "/body/amount"],
    ["GET", "/api/v1/payments?offset=-1", undefined, "/query/offset"],
    ["GET", `/api/v1/payments/${longId}`, undefined, "/params/id"],
    ["GET", "/api/v1/balances?asset=USDC", undefined, "/query/asset"],
    ["GET", "/api/metric/payments.count?range=2d", undefined, "/query/range"],
  ])("%s %s", async (method, path, body, field) => {
    const res = await call(method, path, body);
    expectV1(res, 400, "invalid_request");
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });
});

describe("body size limit (100 kB) → 413", () => {
  const oversized = JSON.stringify({ chain: "base", label: "x".repeat(LIMIT) });

  it("v1 → payload_too_large", async () => {
    expect(Buffer.byteLength(oversized)).toBeGreaterThan(LIMIT);
    expectV1(await call("POST", V1_POST, oversized), 413, "payload_too_large");
  });

  it("v2 → PAYLOAD_TOO_LARGE problem+json", async () => {
    const body = JSON.stringify({ ...bankTransfer, reference: "x".repeat(LIMIT) });
    expectProblem(await call("POST", V2_POST, body, idem()), 413, "PAYLOAD_TOO_LARGE", V2_POST);
  });

  it("a body just under the limit is read (and then validated)", async () => {
    const body = JSON.stringify({ chain: "base", label: "x".repeat(LIMIT - 100) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMIT);
    const res = await call("POST", V1_POST, body);
    expectV1(res, 400, "invalid_request");
    expect(res.json.errors[0].path).toBe("/body/label");
  });
});

describe("wrong content type → 415", () => {
  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml"])(
    "v1 POST with %s",
    async (type) => {
      expectV1(await call("POST", V1_POST, '{"chain":"base"}', { "content-type": type }), 415, "unsupported_media_type");
    },
  );

  it("v1 POST with an unsupported charset", async () => {
    const res = await call("POST", V1_POST, '{"chain":"base"}', { "content-type": "application/json; charset=latin1" });
    expectV1(res, 415, "unsupported_media_type");
  });

  it("v2 POST with text/plain → UNSUPPORTED_MEDIA_TYPE problem+json", async () => {
    const res = await call("POST", V2_POST, JSON.stringify(bankTransfer), { "content-type": "text/plain", ...idem() });
    expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE", V2_POST);
  });
});

describe("routing errors", () => {
  it.each([
    ["/api/v1/nope", "v1"],
    ["/api/v1/wallets/wal_1/nope", "v1"],
    ["/api/metric/a/b", "v1"],
    ["/api/metric", "v1"],
    ["/nope", "v1"],
    ["/api/v2/agent/nope", "v2"],
    ["/api/v2/agent/cards/card_abc/nope", "v2"],
  ])("unknown route %s → 404 in the %s shape, with or without a key", async (path, shape) => {
    for (const caller of [call, anonymous]) {
      const res = await caller("GET", path);
      if (shape === "v2") expectProblem(res, 404, "NOT_FOUND", path);
      else expectV1(res, 404, "not_found");
    }
  });

  it.each([
    ["DELETE", "/api/v1/wallets", ["GET", "POST"], "v1"],
    ["PUT", "/api/v1/payments/pay_1", ["GET"], "v1"],
    ["POST", "/api/metric/payments.count", ["GET"], "v1"],
    ["GET", "/api/v2/agent/treasury/mint", ["POST"], "v2"],
  ])("%s %s → 405 with Allow", async (method, path, allowed, shape) => {
    const res = await call(method as string, path as string);
    if (shape === "v2") expectProblem(res, 405, "METHOD_NOT_ALLOWED", path as string);
    else expectV1(res, 405, "method_not_allowed");
    expect(
      res.headers
        .get("allow")
        ?.split(",")
        .map((m) => m.trim())
        .sort(),
    ).toEqual(allowed);
  });
});

describe("X-Request-Id", () => {
  const cases: Array<[string, () => Promise<Res>]> = [
    ["200", () => call("GET", "/api/v1/wallets")],
    ["201", () => call("POST", V1_POST, { chain: "base" })],
    ["400", () => call("POST", V1_POST, "{")],
    ["401", () => anonymous("GET", "/api/v1/wallets")],
    ["404", () => call("GET", "/api/v1/nope")],
    ["405", () => call("DELETE", "/api/v1/wallets")],
    ["413", () => call("POST", V1_POST, "x".repeat(LIMIT + 1))],
    ["415", () => call("POST", V1_POST, "x", { "content-type": "text/plain" })],
    ["v2 problem", () => call("GET", "/api/v2/agent/nope")],
    ["healthz", () => anonymous("GET", "/healthz")],
    ["openapi.json", () => anonymous("GET", "/openapi.json")],
  ];

  it.each(cases)("is on every response (%s) and matches the body's requestId", async (_name, send) => {
    const res = await send();
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(REQUEST_ID);
    if (res.json && typeof res.json === "object" && "requestId" in res.json) expect(res.json.requestId).toBe(id);
  });

  it("differs between requests", async () => {
    const a = await anonymous("GET", "/healthz");
    const b = await anonymous("GET", "/healthz");
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  it.each(["abcd1234", "trace:01JD6Z3W.span-7_x", "a".repeat(128), "0123456789abcdef0123456789abcdef"])(
    "echoes a well-formed caller id %s",
    async (id) => {
      const res = await call("GET", "/api/v1/nope", undefined, { "x-request-id": id });
      expect(res.headers.get("x-request-id")).toBe(id);
      expect(res.json.requestId).toBe(id);
    },
  );

  it.each([
    ["7 characters", "abc1234"],
    ["129 characters", "a".repeat(129)],
    ["a space", "abcd 1234"],
    ["a slash", "abcd/1234"],
    ["non-ASCII", "abcd1234é"],
    ["a quote", 'abcd"1234'],
  ])("replaces a caller id with %s", async (_name, id) => {
    const res = await fetch(`${server.url}/api/v1/nope`, { headers: { "x-request-id": Buffer.from(id).toString("latin1") } });
    const body = (await res.json()) as { requestId: string };
    expect(res.headers.get("x-request-id")).toMatch(REQUEST_ID);
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
  });
});

describe("rate-limit headers on authenticated responses", () => {
  it.each([
    ["v1", () => call("GET", "/api/v1/wallets")],
    ["v1 error", () => call("GET", "/api/v1/wallets/wal_missing")],
    ["v2", () => call("GET", "/api/v2/agent/cards/card_abc")],
    ["metric", () => call("GET", "/api/metric/payments.count")],
  ] as Array<[string, () => Promise<Res>]>)("%s", async (_name, send) => {
    const res = await send();
    const limit = Number(res.headers.get("x-ratelimit-limit"));
    const remaining = Number(res.headers.get("x-ratelimit-remaining"));
    const reset = Number(res.headers.get("x-ratelimit-reset"));
    expect([server.config.rateLimit.perKey, server.config.rateLimit.perOrganization]).toContain(limit);
    expect(remaining).toBeGreaterThanOrEqual(0);
    expect(remaining).toBeLessThan(limit);
    expect(reset).toBeGreaterThan(0);
    expect(res.headers.get("ratelimit")).toBe(`"default";r=${remaining};t=${reset}`);
    expect(res.headers.get("ratelimit-policy")).toBe(`"default";q=${limit};w=${server.config.rateLimit.windowSeconds}`);
  });

  it("remaining goes down with each request", async () => {
    const a = Number((await call("GET", "/api/v1/wallets")).headers.get("x-ratelimit-remaining"));
    const b = Number((await call("GET", "/api/v1/wallets")).headers.get("x-ratelimit-remaining"));
    expect(b).toBe(a - 1);
  });

  // Refused bodies are answered after authentication and the rate limit, so they report the key's budget too.
  it.each([
    ["malformed JSON (v1)", () => call("POST", V1_POST, '{"chain":', { "content-type": "application/json" }), 400],
    ["malformed JSON (v2)", () => call("POST", V2_POST, "{", { "content-type": "application/json", ...idem() }), 400],
    ["too large (v1)", () => call("POST", V1_POST, JSON.stringify({ label: "x".repeat(LIMIT) })), 413],
    ["too large (v2)", () => call("POST", V2_POST, JSON.stringify({ reference: "x".repeat(LIMIT) }), idem()), 413],
  ] as Array<[string, () => Promise<Res>, number]>)("%s carries the key's budget", async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get("ratelimit-policy")).toBe(
      `"default";q=${res.headers.get("x-ratelimit-limit")};w=${server.config.rateLimit.windowSeconds}`,
    );
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeLessThan(Number(res.headers.get("x-ratelimit-limit")));
  });

  it("a 401 reports the client address's budget of failed authentications, which it spends", async () => {
    const first = await anonymous("GET", "/api/v1/wallets");
    const second = await anonymous("GET", "/api/v1/wallets");
    expect([first.status, second.status]).toEqual([401, 401]);
    const limit = server.config.rateLimit.authFailures;
    expect(first.headers.get("x-ratelimit-limit")).toBe(String(limit));
    expect(first.headers.get("ratelimit-policy")).toBe(`"auth-failures";q=${limit};w=${server.config.rateLimit.windowSeconds}`);
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
    expect(second.headers.get("ratelimit")).toBe(
      `"auth-failures";r=${second.headers.get("x-ratelimit-remaining")};t=${second.headers.get("x-ratelimit-reset")}`,
    );
  });

  it("a malformed or oversized body without a valid key is answered 401, not 400/413", async () => {
    expect((await anonymous("POST", V1_POST, "{", { "content-type": "application/json" })).status).toBe(401);
    expect((await anonymous("POST", V2_POST, JSON.stringify({ reference: "x".repeat(LIMIT) }))).status).toBe(401);
  });
});

describe("headers that are never sent", () => {
  it.each([
    ["200", () => call("GET", "/api/v1/wallets")],
    ["404", () => anonymous("GET", "/nope")],
    ["401", () => anonymous("GET", "/api/v1/wallets")],
    ["healthz", () => anonymous("GET", "/healthz")],
  ] as Array<[string, () => Promise<Res>]>)("no X-Powered-By (%s)", async (_name, send) => {
    expect((await send()).headers.get("x-powered-by")).toBeNull();
  });
});

describe("probes ignore query strings", () => {
  it.each(["/healthz?probe=lb", "/readyz?nocache=1700000000&x=y", "/healthz?"])("%s answers 200", async (path) => {
    const res = await anonymous("GET", path);
    expect(res.status).toBe(200);
  });
});

describe("a 500 never leaks internals (error middleware)", () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const app = express();
    app.use(requestIdAndLogger(createLogger("silent"), createMetrics()));
    const boom = () => {
      const error = new Error("secret db password in message");
      Object.assign(error, { code: "XX000", detail: "secret detail", meta: { query: "SELECT secret" } });
      throw error;
    };
    app.get("/api/v1/boom", boom);
    app.get("/api/v2/agent/boom", boom);
    app.get("/api/v1/async-boom", async () => {
      await Promise.resolve();
      boom();
    });
    app.get("/api/v1/throw-string", () => {
      throw "secret db password as a string";
    });
    app.use(errorHandler());
    const listener = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => listener.once("listening", () => resolve()));
    url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    close = () => new Promise<void>((resolve) => listener.close(() => resolve()));
  });
  afterAll(() => close?.());

  it.each([
    ["/api/v1/boom", "v1"],
    ["/api/v1/async-boom", "v1"],
    ["/api/v1/throw-string", "v1"],
    ["/api/v2/agent/boom", "v2"],
  ])("%s → 500 without message or stack", async (path, shape) => {
    const res = await api(url)("GET", path);
    if (shape === "v2") expectProblem(res, 500, "INTERNAL_ERROR", path);
    else expectV1(res, 500, "internal_error");
    expect(res.text).not.toMatch(/secret|password|SELECT|XX000|at .*\(|\.ts:\d+|stack/i);
    expect(res.json.errors).toBeUndefined();
  });
});
