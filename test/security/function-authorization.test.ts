// OWASP API5:2023 Broken Function Level Authorization: every scope × every API-key operation of the spec. The scopes
// an operation needs are the roles of its security requirement (server/spec/operations.ts reads the same); the scope
// list is what the spec's Scope schema admits. A key holding one scope gets 403 FORBIDDEN on every operation that scope
// does not grant (write implies read), and passes the scope check where it does. Requests are the spec's valid
// examples: validation runs before the scope check (server/app.ts), so an invalid body would answer 400 and prove
// nothing. Refused requests write nothing. Admin and scheduler operations refuse API keys of any scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasScope } from "../../server/domain/access/api-keys.ts";
import { allScopes, doc, expectError, operations, organizationSnapshot } from "../helpers/security.ts";
import { exampleRequest, type SpecOperation } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_sec_bfla";
const scopes = allScopes();
const keyed = operations.filter((op) => op.operation.security === "apiKey");
/** Operations whose security requirement names scopes; the others decide in the domain (below). */
const scoped = keyed.filter((op) => op.operation.scopes.length > 0);
const name = (op: SpecOperation) => `${op.operation.operationId}`;
const grants = (scope: string, op: SpecOperation) => op.operation.scopes.every((required) => hasScope([scope], required));

let server: TestServer;
const keys: Record<string, string> = {};

beforeAll(async () => {
  // Response validation off: each operation's first request compiles its validators, and this file touches every
  // operation; the error shapes asserted here are checked by expectError.
  server = await startTestServer({ env: { VALIDATE_RESPONSES: "false" } });
  for (const scope of scopes) keys[scope] = (await server.createKey({ organizationId: ORG, scopes: [scope] })).key;
});
afterAll(() => server?.close());

async function send(op: SpecOperation, key: string) {
  const request = exampleRequest(doc, op, ORG);
  return { path: request.path, res: await api(server.url, key)(request.method, request.path, request.body, request.headers) };
}

it("the spec defines the scopes and every required scope is one of them", () => {
  expect(scopes).toEqual(expect.arrayContaining(["wallets:read", "wallets:write", "payments:write", "cards:write", "analytics:read"]));
  for (const op of scoped) for (const required of op.operation.scopes) expect(scopes, name(op)).toContain(required);
  // write implies read, not the reverse; no scope reaches another resource.
  expect(hasScope(["wallets:write"], "wallets:read")).toBe(true);
  expect(hasScope(["wallets:read"], "wallets:write")).toBe(false);
  expect(hasScope(["cards:write"], "wallets:read")).toBe(false);
});

describe("each scope on each operation", () => {
  it("403 FORBIDDEN where the scope does not grant the operation, and nothing is written", async () => {
    const before = await organizationSnapshot(server, ORG);
    const wrong: string[] = [];
    for (const op of scoped) {
      const denied = scopes.filter((scope) => !grants(scope, op));
      const results = await Promise.all(denied.map(async (scope) => ({ scope, ...(await send(op, keys[scope] as string)) })));
      for (const { scope, path, res } of results) {
        if (res.status !== 403 || !/scope/.test(res.json?.detail ?? res.json?.error ?? "")) {
          wrong.push(`${name(op)} with ${scope}: ${res.status} ${res.text}`);
          continue;
        }
        expectError(res, 403, "FORBIDDEN", path);
      }
    }
    expect(wrong).toEqual([]);
    // Only the keys' bookkeeping may differ (none today): no business row of the organization appeared or changed.
    expect(await organizationSnapshot(server, ORG)).toEqual(before);
  });

  it("never 401 or 403 where the scope grants it (the request reaches its handler)", async () => {
    const wrong: string[] = [];
    for (const op of scoped)
      for (const scope of scopes) {
        if (!grants(scope, op)) continue;
        const { res } = await send(op, keys[scope] as string);
        if (res.status === 401 || res.status === 403 || res.status === 400)
          wrong.push(`${name(op)} with ${scope}: ${res.status} ${res.text}`);
      }
    expect(wrong).toEqual([]);
  });
});

describe("operations whose scope depends on the input (decided in the domain)", () => {
  it("are only the provider and approval operations", () => {
    expect(keyed.filter((op) => op.operation.scopes.length === 0).map(name)).toEqual([
      "listProviders",
      "selectProvider",
      "invokeProvider",
      // The list holds only the requests whose scope the key can read (test/http/lists-filters.test.ts).
      "listApprovalRequests",
      "getApprovalRequest",
      "approveApprovalRequest",
      "rejectApprovalRequest",
    ]);
  });

  it("providers/invoke of an FX quote: only fx:write passes the scope check", async () => {
    const invoke = keyed.find((op) => op.operation.operationId === "invokeProvider") as SpecOperation;
    expect((exampleRequest(doc, invoke).body as { category: string }).category).toBe("fx");
    for (const scope of scopes) {
      const { path, res } = await send(invoke, keys[scope] as string);
      if (scope === "fx:write") expect([401, 403], res.text).not.toContain(res.status);
      else expectError(res, 403, "FORBIDDEN", path);
    }
  });
});

describe("admin and scheduler operations refuse API keys of any scope", () => {
  const others = operations.filter((op) => op.operation.security === "adminToken" || op.operation.security === "schedulerSecret");
  it.each(others.map((op) => [name(op), op] as const))("%s", async (_name, op) => {
    for (const scope of scopes) {
      const { path, res } = await send(op, keys[scope] as string);
      expectError(res, 401, "UNAUTHORIZED", path);
    }
  });
});
