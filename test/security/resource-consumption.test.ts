// OWASP API4:2023 Unrestricted Resource Consumption: bodies over the limit (413), other media types (415), deep
// nesting (400), out-of-range or non-numeric page sizes on every list endpoint of the spec (400), overlong
// Idempotency-Keys on every operation that takes one (400), and the rate limits (429 with Retry-After, per key and per
// organization). Every refusal is in the surface's documented shape and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter, type RateLimiter } from "../../server/rate-limit/rate-limiter.ts";
import { joinMember } from "../helpers/members.ts";
import { doc, expectError, operations, organizationSnapshot } from "../helpers/security.ts";
import { exampleRequest } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, idem } from "../helpers/v2.ts";

type Json = Record<string, unknown>;
const ORG = "org_sec_rc";
/** Organizations whose names start with this get 3 requests per key and 5 per organization per minute. */
const LIMITED = "org_sec_rl_";
const V1_WALLETS = "/api/v1/wallets";
const V2_PROGRAMMES = "/api/v2/agent/cards/programmes";
const programme = () => ({
  name: `P ${Math.random()}`,
  network: "visa",
  binSponsor: "Sutton Bank",
  jurisdictions: ["US"],
  fundingAsset: "USDC",
  fundingModel: "prefunded",
});

let server: TestServer;
let key: string;
let call: ReturnType<typeof api>;
let ownerCall: ReturnType<typeof api>;

beforeAll(async () => {
  // Strict budgets (3 per key, 5 per organization) for the organizations of the rate-limit tests, through the real
  // limiter and middleware; the other tests' organization gets the default test budget. Response validation off:
  // the Idempotency-Key sweep reaches every operation and the answers are error shapes checked by expectError.
  const strict = createRateLimiter({ perKey: 3, perOrganization: 5, windowSeconds: 60 });
  const loose = createRateLimiter({ perKey: 100_000, perOrganization: 100_000, windowSeconds: 60 });
  const rateLimiter: RateLimiter = {
    consume: (apiKeyId, organizationId) => (organizationId.startsWith(LIMITED) ? strict : loose).consume(apiKeyId, organizationId),
    ready: async () => {},
    close: async () => {
      await Promise.all([strict.close(), loose.close()]);
    },
  };
  server = await startTestServer({ env: { VALIDATE_RESPONSES: "false" }, rateLimiter });
  key = (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES })).key;
  call = api(server.url, key);
  // The people's lists (members, API keys, audit log) answer only a member's session: an owner of ORG reads them.
  ownerCall = (await joinMember(server, ORG, { role: "owner" })).call;
});
afterAll(() => server?.close());

describe("request bodies", () => {
  const targets = () =>
    [
      [V1_WALLETS, { authorization: `Bearer ${key}` }],
      [V2_PROGRAMMES, { authorization: `Bearer ${key}`, ...idem() }],
      ["/api/admin/keys", { authorization: `Bearer ${server.adminToken}` }],
    ] as Array<[string, Record<string, string>]>;

  it("over BODY_LIMIT_BYTES is 413 PAYLOAD_TOO_LARGE on every surface, also for a 5 MB body, and nothing is written", async () => {
    const before = await organizationSnapshot(server, ORG);
    const limit = server.config.bodyLimitBytes;
    for (const size of [limit + 1, 5 * 1024 * 1024]) {
      const body = JSON.stringify({ chain: "base", label: "x".repeat(size) });
      for (const [path, headers] of targets())
        expectError(await api(server.url)("POST", path, body, headers), 413, "PAYLOAD_TOO_LARGE", path);
    }
    expect(await organizationSnapshot(server, ORG)).toEqual(before);
  });

  it.each([
    ["text/plain", '{"chain":"base"}'],
    ["application/x-www-form-urlencoded", "chain=base"],
    ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="chain"\r\n\r\nbase\r\n--x--'],
    ["application/xml", "<chain>base</chain>"],
  ])("a %s body is 415 UNSUPPORTED_MEDIA_TYPE on every surface", async (contentType, body) => {
    for (const [path, headers] of targets()) {
      const res = await api(server.url)("POST", path, body, { ...headers, "content-type": contentType });
      expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE", path);
    }
  });

  it.each([65, 1_000, 40_000])("JSON nested %i levels deep is 400 VALIDATION_ERROR (never a stack overflow)", async (depth) => {
    const nested = `{"chain":"base","metadata":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    for (const [path, headers] of targets()) {
      const res = await api(server.url)("POST", path, nested, headers);
      expectError(res, 400, "VALIDATION_ERROR", path);
    }
  });

  it("malformed JSON is 400 VALIDATION_ERROR", async () => {
    for (const [path, headers] of targets())
      expectError(await api(server.url)("POST", path, '{"chain": "base",', headers), 400, "VALIDATION_ERROR", path);
  });
});

describe("page sizes", () => {
  // Every operation with a `limit` query parameter, and every bounded integer query parameter of those operations.
  const lists = operations.filter((op) => op.parameters.some((p) => p.in === "query" && p.name === "limit"));

  it("the spec bounds every page size", () => {
    expect(lists.map((op) => op.operation.operationId).sort()).toEqual(
      expect.arrayContaining(["listWallets", "listPayments", "listCardTransactions", "listIssuanceRequests"]),
    );
    for (const op of lists) {
      const limit = op.parameters.find((p) => p.name === "limit")?.schema as Json;
      expect(limit, op.operation.operationId).toMatchObject({ type: "integer", minimum: 1, maximum: expect.any(Number) });
      expect(limit.maximum as number).toBeLessThanOrEqual(100);
    }
  });

  it("out-of-range or non-integer limit (and offset) is 400 VALIDATION_ERROR on every list endpoint", async () => {
    const wrong: string[] = [];
    for (const op of lists) {
      const base = exampleRequest(doc, op, ORG).path;
      for (const parameter of op.parameters.filter((p) => p.in === "query" && (p.schema as Json)?.type === "integer")) {
        const schema = parameter.schema as { minimum: number; maximum: number };
        // Infinity and 1e999 once passed the validator (JavaScript number coercion) and reached the database: 500.
        const values = [schema.maximum + 1, 1_000_000_000, schema.minimum - 1, -1, "abc", "1.5", "", "10abc"];
        values.push("Infinity", "-Infinity", "1e999", "1e1", "0x10", "NaN", " 5", "9".repeat(400));
        for (const value of values) {
          const path = `${base}${base.includes("?") ? "&" : "?"}${String(parameter.name)}=${encodeURIComponent(String(value))}`;
          const res = await (op.operation.security === "session" ? ownerCall : call)("GET", path);
          if (res.status !== 400) wrong.push(`${path}: ${res.status}`);
          else expectError(res, 400, "VALIDATION_ERROR", path);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a repeated limit parameter is 400, not the larger one", async () => {
    expectError(await call("GET", `${V1_WALLETS}?limit=1&limit=1000000`), 400, "VALIDATION_ERROR");
  });
});

describe("Idempotency-Key", () => {
  const withKey = operations.filter((op) => op.operation.idempotency !== "none" && op.operation.security === "apiKey");

  it.each([
    ["256 characters", "k".repeat(256)],
    ["8 KiB", "k".repeat(8192)],
    ["a quoted 256-character string", `"${"k".repeat(256)}"`],
    ["a control character", "abc\tdef"],
  ])("%s is 400 VALIDATION_ERROR on every operation that takes one, and nothing is written", async (_what, value) => {
    expect(withKey.length).toBeGreaterThan(30);
    const before = await organizationSnapshot(server, ORG);
    const wrong: string[] = [];
    for (const op of withKey) {
      const request = exampleRequest(doc, op, ORG);
      const res = await call(request.method, request.path, request.body, { "idempotency-key": value });
      if (res.status !== 400) wrong.push(`${op.operation.operationId}: ${res.status} ${res.text}`);
      else expectError(res, 400, "VALIDATION_ERROR", request.path);
    }
    expect(wrong).toEqual([]);
    expect(await organizationSnapshot(server, ORG)).toEqual(before);
  });

  it("255 characters are accepted", async () => {
    const res = await call("POST", V1_WALLETS, { chain: "base" }, { "idempotency-key": "k".repeat(255) });
    expect(res.status, res.text).toBe(201);
  });
});

describe("rate limits", () => {
  const surfaces: Array<[string, string, string, (() => unknown)?]> = [
    ["v1", "GET", V1_WALLETS],
    ["metrics", "GET", "/api/metric/payments.count"],
    ["v2", "GET", "/api/v2/agent/providers"],
    ["v2 write", "POST", V2_PROGRAMMES, programme],
  ];

  it.each(surfaces)(
    "%s: the 4th request of a key within the window is 429 RATE_LIMIT_EXCEEDED with Retry-After",
    async (_s, method, path, body) => {
      const organizationId = `${LIMITED}${Math.random().toString(36).slice(2, 8)}`;
      const limitedCall = api(server.url, (await server.createKey({ organizationId, scopes: ALL_WRITE_SCOPES })).key);
      for (let i = 0; i < 3; i++) {
        const res = await limitedCall(method, path, body?.(), idem());
        expect(res.status, res.text).toBeLessThan(300);
        expect(res.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
      }
      const before = await organizationSnapshot(server, organizationId);
      const refused = await limitedCall(method, path, body?.(), idem());
      expectError(refused, 429, "RATE_LIMIT_EXCEEDED", path);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).toBe(true);
      // A refused write did not execute.
      expect(await organizationSnapshot(server, organizationId)).toEqual(before);
    },
  );

  it("the organization's budget caps the sum of its keys (a second key does not reset it)", async () => {
    const organizationId = `${LIMITED}org`;
    const first = api(server.url, (await server.createKey({ organizationId, scopes: ["wallets:read"] })).key);
    const second = api(server.url, (await server.createKey({ organizationId, scopes: ["wallets:read"] })).key);
    for (let i = 0; i < 3; i++) expect((await first("GET", V1_WALLETS)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await second("GET", V1_WALLETS)).status).toBe(200);
    const refused = await second("GET", V1_WALLETS);
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED", V1_WALLETS);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another organization is unaffected.
    const other = api(server.url, (await server.createKey({ organizationId: `${LIMITED}else`, scopes: ["wallets:read"] })).key);
    expect((await other("GET", V1_WALLETS)).status).toBe(200);
  });
});
