// OWASP API2:2023 Broken Authentication, on every operation of the spec by its security scheme: API-key operations
// refuse missing, malformed, unknown and revoked keys, keys in the query string (even next to a valid header), other
// schemes, the admin token and the scheduler secret; admin operations refuse API keys; the scheduler's dispatch refuses
// both. Every refusal is 401 in the surface's documented shape. (The spec documents no WWW-Authenticate challenge, so
// none is asserted.) test/http/auth.test.ts covers the v1 surface in depth; this file sweeps the whole spec.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doc, expectError, operations } from "../helpers/security.ts";
import { exampleRequest, type SpecOperation } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES } from "../helpers/v2.ts";

const ORG = "org_sec_authn";
const SCHEDULER_SECRET = "test-scheduler-secret";
const withScheme = (scheme: string) => operations.filter((op) => op.operation.security === scheme);
const keyed = withScheme("apiKey");
const admin = withScheme("adminToken");
const scheduler = withScheme("schedulerSecret");

let server: TestServer;
let validKey: string;

beforeAll(async () => {
  // Response validation off (compiling an operation's response validators costs ~0.4 s of CPU); every answer asserted
  // here is checked against the documented error shape by expectError.
  server = await startTestServer({ env: { VALIDATE_RESPONSES: "false" } });
  validKey = (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES })).key;
});
afterAll(() => server?.close());

/** The spec's example request for the operation, sent with the given headers instead of any credentials. */
async function send(op: SpecOperation, headers: Record<string, string>, query = "") {
  const request = exampleRequest(doc, op, ORG);
  const path = request.path + (query ? (request.path.includes("?") ? "&" : "?") + query : "");
  return { path, res: await api(server.url)(request.method, path, request.body, { ...request.headers, ...headers }) };
}

async function expect401(op: SpecOperation, headers: Record<string, string>, query = "") {
  const { path, res } = await send(op, headers, query);
  expectError(res, 401, "UNAUTHORIZED", path);
}

it("the spec has operations under each scheme (so the sweeps below are not empty)", () => {
  expect(keyed.length).toBeGreaterThan(40);
  expect(admin.length).toBeGreaterThan(5);
  expect(scheduler.length).toBe(1);
});

describe("API-key operations", () => {
  const refused: Array<[string, () => Record<string, string>]> = [
    ["no Authorization header", () => ({})],
    ["an empty bearer", () => ({ authorization: "Bearer " })],
    ["a malformed key", () => ({ authorization: "Bearer cp_sandbox_short" })],
    ["a key with a trailing token", () => ({ authorization: `Bearer ${validKey} extra` })],
    ["a well-formed unknown key", () => ({ authorization: `Bearer cp_sandbox_${"Q".repeat(43)}` })],
    ["a valid key under the Basic scheme", () => ({ authorization: `Basic ${Buffer.from(`${validKey}:`).toString("base64")}` })],
    ["the key without a scheme", () => ({ authorization: validKey })],
    ["the key in X-API-Key", () => ({ "x-api-key": validKey })],
    ["the admin token", () => ({ authorization: `Bearer ${server.adminToken}` })],
    ["the scheduler secret", () => ({ authorization: `Bearer ${SCHEDULER_SECRET}`, "x-scheduler-secret": SCHEDULER_SECRET })],
  ];
  for (const [what, headers] of refused) {
    it(`401 with ${what}, on every one`, async () => {
      for (const op of keyed) await expect401(op, headers());
    });
  }

  it.each(["api_key", "apikey", "apiKey", "key", "access_token", "token"])(
    "401 for ?%s=<key>, alone or next to a valid header, on every one",
    async (param) => {
      for (const op of keyed) {
        await expect401(op, {}, `${param}=${validKey}`);
        await expect401(op, { authorization: `Bearer ${validKey}` }, `${param}=${validKey}`);
      }
    },
  );

  it("a revoked key is refused on the very next request, on every one, although it was just used", async () => {
    const { id, key } = await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES });
    // Use it first on each surface, so any cache of verified keys holds it.
    for (const path of ["/api/v1/wallets", "/api/v2/agent/providers", "/api/metric/payments.count"])
      expect((await api(server.url, key)("GET", path)).status, path).toBe(200);
    const revoked = await api(server.url, server.adminToken)("DELETE", `/api/admin/keys/${id}`);
    expect(revoked.status, revoked.text).toBe(200);
    for (const op of keyed) await expect401(op, { authorization: `Bearer ${key}` });
  });

  it("a production key on the sandbox-only v1 endpoints is 403 forbidden (authenticated, not allowed)", async () => {
    const production = (await server.createKey({ organizationId: ORG, environment: "production", scopes: ALL_WRITE_SCOPES })).key;
    const v1 = keyed.filter((op) => op.operation.surface === "v1");
    expect(v1.length).toBe(8);
    for (const op of v1) {
      const { path, res } = await send(op, { authorization: `Bearer ${production}` });
      expectError(res, 403, "FORBIDDEN", path);
      expect(res.json.error).toMatch(/sandbox-only/);
    }
  });
});

describe("admin operations", () => {
  const refused: Array<[string, () => Record<string, string>]> = [
    ["no Authorization header", () => ({})],
    ["an API key with every scope", () => ({ authorization: `Bearer ${validKey}` })],
    ["the scheduler secret", () => ({ authorization: `Bearer ${SCHEDULER_SECRET}`, "x-scheduler-secret": SCHEDULER_SECRET })],
    ["a wrong token", () => ({ authorization: `Bearer ${server.adminToken}x` })],
    ["the token as Basic", () => ({ authorization: `Basic ${Buffer.from(`admin:${server.adminToken}`).toString("base64")}` })],
    ["the token in the query string only", () => ({})],
  ];
  for (const [what, headers] of refused) {
    it(`401 with ${what}, on every one`, async () => {
      const query = what.includes("query") ? `token=${server.adminToken}` : "";
      for (const op of admin) await expect401(op, headers(), query);
    });
  }
});

describe("the scheduler's dispatch", () => {
  it.each([
    ["no secret", {}],
    ["a wrong secret", { "x-scheduler-secret": `${SCHEDULER_SECRET}x` }],
    ["an API key", { authorization: "Bearer KEY" }],
    ["the admin token", { authorization: "Bearer ADMIN" }],
  ] as Array<[string, Record<string, string>]>)("401 with %s", async (_what, headers) => {
    const real = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, v.replace("KEY", validKey).replace("ADMIN", server.adminToken)]),
    );
    for (const op of scheduler) await expect401(op, real);
  });

  it("accepts its secret", async () => {
    for (const op of scheduler) expect((await send(op, { "x-scheduler-secret": SCHEDULER_SECRET })).res.status).toBe(200);
  });
});
