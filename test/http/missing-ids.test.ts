// Missing is 404 (issue 38): on v1 and on the agent API, a path id that names nothing the caller can see answers 404
// — in the v1 shape {error, code, requestId} or the agent's NOT_FOUND problem — whatever its form: another kind's
// prefix, no prefix, odd characters, 255 characters. Only an id past 255 characters is a 400, and nothing is a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinMember } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_missing_ids";
const SCOPES = ["wallets:read", "payments:read", "projects:read", "cards:read", "webhooks:read", "webhooks:write"];

let server: TestServer;
let call: ReturnType<typeof api>;
let otherWallet: string;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: SCOPES })).key);
  const other = api(server.url, (await server.createKey({ organizationId: "org_missing_other", scopes: ["wallets:write"] })).key);
  const created = await other("POST", "/api/v1/wallets", { chain: "base" });
  expect(created.status, created.text).toBe(201);
  otherWallet = created.json.id;
});
afterAll(() => server?.close());

/** Ids that name nothing here, each as it goes in a path (percent-encoded where needed). */
const MISSING: [string, string][] = [
  ["the right prefix", "wal_missing_x"],
  ["another kind's prefix", "pay_3Jk8LmN2pQ5rS7tU9vW1xY"],
  ["no prefix", "missing"],
  ["one character", "x"],
  ["255 characters", "w".repeat(255)],
  ["dots, dashes and tildes", "a.b-c~d"],
  ["a space", "wal_%20x"],
  ["an emoji", "%F0%9F%92%B0"],
  ["a percent sign", "wal_%25"],
];

const V1 = ["/api/v1/wallets/{id}", "/api/v1/wallets/{id}/balance", "/api/v1/payments/{id}"];
const AGENT = [
  "/api/v2/agent/contracts/{id}",
  "/api/v2/agent/approvals/{id}",
  "/api/v2/agent/payments/corridor/workflows/{id}",
  "/api/v2/agent/treasury/issuance-requests/{id}",
  "/api/v2/agent/cards/{id}",
  "/api/v2/agent/cards/{id}/transactions",
  "/api/v2/agent/webhook-endpoints/{id}",
  "/api/v2/agent/webhook-endpoints/{id}/deliveries",
  "/api/v2/agent/events/{id}",
];

type Res = Awaited<ReturnType<ReturnType<typeof api>>>;

function expectV1NotFound(res: Res) {
  expect(res.status, res.text).toBe(404);
  expect(res.json).toEqual({ error: expect.any(String), code: "not_found", requestId: res.headers.get("x-request-id") });
}

function expectAgentNotFound(res: Res) {
  expect(res.status, res.text).toBe(404);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({ status: 404, code: "NOT_FOUND", requestId: res.headers.get("x-request-id") });
}

describe("v1: an id that names no wallet or payment of the key → 404 in the v1 shape", () => {
  it.each(V1.flatMap((path) => MISSING.map(([name, id]) => [path, name, id] as const)))("%s with %s", async (path, _name, id) => {
    expectV1NotFound(await call("GET", path.replace("{id}", id)));
  });

  it("another organization's wallet is missing too", async () => {
    expectV1NotFound(await call("GET", `/api/v1/wallets/${otherWallet}`));
    expectV1NotFound(await call("GET", `/api/v1/wallets/${otherWallet}/balance`));
  });
});

describe("agent API: an id that names nothing of the caller → 404 NOT_FOUND", () => {
  it.each(AGENT.flatMap((path) => MISSING.map(([name, id]) => [path, name, id] as const)))("%s with %s", async (path, _name, id) => {
    expectAgentNotFound(await call("GET", path.replace("{id}", id)));
  });

  it("a write to a missing webhook endpoint and a missing delivery → 404", async () => {
    expectAgentNotFound(await call("DELETE", "/api/v2/agent/webhook-endpoints/missing"));
    const retry = await call("POST", "/api/v2/agent/webhook-endpoints/nothing/deliveries/nothing-either/retry", undefined, {
      "idempotency-key": `missing-${Date.now()}`,
    });
    expectAgentNotFound(retry);
  });

  it("members and API keys, with a session: any missing id → 404", async () => {
    const owner = await joinMember(server, ORG, { role: "owner" });
    for (const id of ["mem_missing", "nothing", "w".repeat(255)])
      expectAgentNotFound(await owner.call("GET", `/api/v2/agent/members/${id}`));
    for (const id of ["key_missing", "nothing"]) expectAgentNotFound(await owner.call("GET", `/api/v2/agent/api-keys/${id}`));
  });
});

describe("over-long and odd ids are never a 500", () => {
  it.each([
    ["256 characters", "w".repeat(256)],
    ["5000 characters", "w".repeat(5000)],
    ["NUL", "wal_%00"],
    ["a control character", "wal_%01x"],
    ["an encoded slash", "wal_%2Fx"],
  ])("%s", async (_name, id) => {
    for (const path of [...V1, ...AGENT]) {
      const res = await call("GET", path.replace("{id}", id));
      expect([400, 404], `${path} ${res.status} ${res.text}`).toContain(res.status);
      if (path.startsWith("/api/v1/")) expect(Object.keys(res.json).sort()).toEqual(expect.arrayContaining(["code", "error", "requestId"]));
      else expect(res.json.code).toMatch(/^(VALIDATION_ERROR|NOT_FOUND)$/);
    }
  });

  it("past 255 characters → 400 naming the parameter", async () => {
    const v1 = await call("GET", `/api/v1/wallets/${"w".repeat(256)}`);
    expect(v1.status).toBe(400);
    expect(v1.json.code).toBe("invalid_request");
    const agent = await call("GET", `/api/v2/agent/events/${"e".repeat(256)}`);
    expect(agent.status).toBe(400);
    expect(agent.json.code).toBe("VALIDATION_ERROR");
  });
});
