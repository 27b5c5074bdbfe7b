// Authentication (who is calling) and authorization (scopes, sandbox-only, organization) on every keyed surface.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { exampleBody, type SpecOperation, specOperations } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_auth";
const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const ALL_V1_SCOPES = ["wallets:write", "payments:write", "analytics:read"];

interface Endpoint {
  method: string;
  path: string;
  body?: unknown;
  /** The resource whose scope the endpoint needs. */
  resource: "wallets" | "payments" | "analytics";
  write: boolean;
  /** The answer to the valid request with the scope: created, listed, or the missing id's 404 (past authorization). */
  ok: 200 | 201 | 404;
}

// The 8 sandbox endpoints and the metrics endpoint, each with a valid request.
const ENDPOINTS: Endpoint[] = [
  { method: "POST", path: "/api/v1/wallets", body: { chain: "base" }, resource: "wallets", write: true, ok: 201 },
  { method: "GET", path: "/api/v1/wallets", resource: "wallets", write: false, ok: 200 },
  { method: "GET", path: "/api/v1/wallets/wal_missing", resource: "wallets", write: false, ok: 404 },
  { method: "GET", path: "/api/v1/wallets/wal_missing/balance", resource: "wallets", write: false, ok: 404 },
  {
    method: "POST",
    path: "/api/v1/payments",
    body: { amount: "1", stablecoin: "USDC", chain: "base", toAddress: EVM },
    resource: "payments",
    write: true,
    ok: 201,
  },
  { method: "GET", path: "/api/v1/payments", resource: "payments", write: false, ok: 200 },
  { method: "GET", path: "/api/v1/payments/pay_missing", resource: "payments", write: false, ok: 404 },
  { method: "GET", path: "/api/v1/balances", resource: "wallets", write: false, ok: 200 },
  { method: "GET", path: "/api/metric/payments.count", resource: "analytics", write: false, ok: 200 },
];
const V1 = ENDPOINTS.filter((e) => e.path.startsWith("/api/v1/"));
const row = (e: Endpoint) => [`${e.method} ${e.path}`, e] as const;

const doc = loadSpec();
const v2 = (operationId: string) => specOperations(doc).find((o) => o.operation.operationId === operationId) as SpecOperation;

let server: TestServer;
let anonymous: ReturnType<typeof api>;
const keys: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  anonymous = api(server.url);
  const make = async (name: string, scopes: string[], environment: "sandbox" | "production" = "sandbox") => {
    keys[name] = (await server.createKey({ organizationId: ORG, environment, scopes })).key;
  };
  await make("all", ALL_V1_SCOPES);
  await make("production", ALL_V1_SCOPES, "production");
  await make("paymentsOnly", ["payments:write"]);
  await make("walletsOnly", ["wallets:write"]);
  await make("walletsRead", ["wallets:read"]);
  await make("paymentsRead", ["payments:read"]);
  await make("compliance", ["compliance:write"]);
});
afterAll(() => server?.close());

const callWith = (key: string | undefined, e: Endpoint, headers: Record<string, string> = {}) =>
  api(server.url, key)(e.method, e.path, e.body, headers);

function expectV1Error(res: Awaited<ReturnType<ReturnType<typeof api>>>, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.json).toEqual({ error: expect.any(String), code, requestId: res.headers.get("x-request-id") });
}

describe("a valid sandbox key with the scope reaches every endpoint", () => {
  it.each(ENDPOINTS.map(row))("%s", async (_name, e) => {
    const res = await callWith(keys.all, e);
    expect(res.status, res.text).toBe(e.ok);
    if (e.ok === 404) expect(res.json.error).toMatch(/not found/i);
  });
});

describe("401 unauthorized", () => {
  it.each(ENDPOINTS.map(row))("%s without Authorization", async (_name, e) => {
    expectV1Error(await callWith(undefined, e), 401, "unauthorized");
  });

  const malformed = [
    ["Basic credentials", "Basic dXNlcjpwYXNz"],
    ["Bearer alone", "Bearer"],
    ["Bearer and a space", "Bearer "],
    ["a token that is not cp_", "Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc"],
    ["a cp_ key of an unknown environment", `Bearer cp_staging_${"a".repeat(43)}`],
    ["a cp_ key one character short", `Bearer cp_sandbox_${"a".repeat(42)}`],
    ["two tokens", `Bearer cp_sandbox_${"a".repeat(43)} extra`],
  ];
  it.each(ENDPOINTS.flatMap((e) => malformed.map(([what, header]) => [`${e.method} ${e.path}`, what, header, e] as const)))(
    "%s with %s",
    async (_name, _what, header, e) => {
      const res = await api(server.url)(e.method, e.path, e.body, { authorization: header as string });
      expectV1Error(res, 401, "unauthorized");
    },
  );

  it.each(ENDPOINTS.map(row))("%s with an unknown well-formed key", async (_name, e) => {
    expectV1Error(await callWith(`cp_sandbox_${"Z9".repeat(21)}x`, e), 401, "unauthorized");
  });

  it.each(ENDPOINTS.map(row))("%s with the key in the query string instead of the header", async (_name, e) => {
    const withQuery = { ...e, path: `${e.path}?api_key=${keys.all}` };
    expectV1Error(await callWith(undefined, withQuery), 401, "unauthorized");
  });

  it.each(["api_key", "apikey", "access_token", "token"])("refuses ?%s even alongside a valid header", async (name) => {
    const res = await api(server.url, keys.all)("GET", `/api/v1/wallets?${name}=${keys.all}`);
    expectV1Error(res, 401, "unauthorized");
  });

  it("revoking a key takes effect on the very next request, on every endpoint", async () => {
    const { id, key } = await server.createKey({ organizationId: ORG, scopes: ALL_V1_SCOPES });
    expect((await api(server.url, key)("GET", "/api/v1/wallets")).status).toBe(200);
    const revoked = await api(server.url, server.adminToken)("DELETE", `/api/admin/keys/${id}`);
    expect(revoked.status).toBe(200);
    for (const e of ENDPOINTS) expectV1Error(await callWith(key, e), 401, "unauthorized");
  });

  it("accepts the scheme name case-insensitively (RFC 9110)", async () => {
    const res = await api(server.url)("GET", "/api/v1/wallets", undefined, { authorization: `bearer ${keys.all}` });
    expect(res.status).toBe(200);
  });
});

describe("403 forbidden", () => {
  it.each(V1.map(row))("%s with a production key", async (_name, e) => {
    expectV1Error(await callWith(keys.production, e), 403, "forbidden");
  });

  const scopeCases: Array<[string, string, Endpoint]> = [
    ...V1.filter((e) => e.resource === "wallets").map((e): [string, string, Endpoint] => ["paymentsOnly", `${e.method} ${e.path}`, e]),
    ...V1.filter((e) => e.resource === "payments").map((e): [string, string, Endpoint] => ["walletsOnly", `${e.method} ${e.path}`, e]),
    ["walletsRead", "POST /api/v1/wallets", ENDPOINTS[0] as Endpoint],
    ["paymentsRead", "POST /api/v1/payments", ENDPOINTS[4] as Endpoint],
    ["walletsOnly", "GET /api/metric/payments.count", ENDPOINTS[8] as Endpoint],
  ];
  it.each(scopeCases)("a %s key on %s", async (keyName, _name, e) => {
    const res = await callWith(keys[keyName], e);
    expectV1Error(res, 403, "forbidden");
    expect(res.json.error).toMatch(/scope/);
  });

  it("a refused write writes nothing", async () => {
    const before = await api(server.url, keys.walletsRead)("GET", "/api/v1/wallets");
    expect((await api(server.url, keys.walletsRead)("POST", "/api/v1/wallets", { chain: "base" })).status).toBe(403);
    const after = await api(server.url, keys.walletsRead)("GET", "/api/v1/wallets");
    expect(after.json.count).toBe(before.json.count);
  });
});

describe("write implies read", () => {
  it.each([
    ["walletsOnly", "GET", "/api/v1/wallets"],
    ["walletsOnly", "GET", "/api/v1/balances"],
    ["paymentsOnly", "GET", "/api/v1/payments"],
    ["walletsRead", "GET", "/api/v1/wallets"],
    ["paymentsRead", "GET", "/api/v1/payments"],
  ])("a %s key may %s %s", async (keyName, method, path) => {
    expect((await api(server.url, keys[keyName])(method, path)).status).toBe(200);
  });
});

describe("v2: a key never reaches another resource's endpoints", () => {
  const cases = [
    ["payments", "createBankTransfer"],
    ["wallets (custody)", "createCustodyWallet"],
    ["cards", "getCard"],
  ] as const;

  function request(operationId: string, organizationId = ORG) {
    const op = v2(operationId);
    const path = op.operation.pathTemplate.replace("{cardId}", "card_abc");
    const headers: Record<string, string> = op.operation.idempotency === "none" ? {} : { "idempotency-key": `auth-${Math.random()}` };
    return { method: op.operation.method, path, body: exampleBody(op, organizationId), headers };
  }

  it.each(cases)("a compliance-only key gets 403 FORBIDDEN problem+json on %s (%s)", async (_resource, operationId) => {
    const r = request(operationId);
    const res = await api(server.url, keys.compliance)(r.method, r.path, r.body, r.headers);
    expect(res.status, res.text).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({
      type: "https://docs.coinplane.dev/errors/forbidden",
      title: "Forbidden",
      status: 403,
      code: "FORBIDDEN",
      instance: r.path,
      requestId: res.headers.get("x-request-id"),
    });
  });

  it("v2 without a key is 401 UNAUTHORIZED problem+json", async () => {
    const r = request("getCard");
    const res = await anonymous(r.method, r.path);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("organizationId in the body must be the key's own (403), the key's own passes the check", async () => {
    const key = (await server.createKey({ organizationId: ORG, scopes: ["payments:write"] })).key;
    const other = request("createBankTransfer", "org_someone_else");
    (other.body as Record<string, unknown>).organizationId = "org_someone_else";
    const refused = await api(server.url, key)(other.method, other.path, other.body, other.headers);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json).toMatchObject({ code: "FORBIDDEN", detail: expect.stringMatching(/organizationId/) });
    const own = request("createBankTransfer");
    (own.body as Record<string, unknown>).organizationId = ORG;
    const passed = await api(server.url, key)(own.method, own.path, own.body, own.headers);
    expect(passed.status, passed.text).not.toBe(403);
    expect(passed.status).not.toBe(401);
  });
});
