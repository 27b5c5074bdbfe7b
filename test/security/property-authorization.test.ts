// OWASP API3:2023 Broken Object Property Level Authorization. Mass assignment: every request body in the spec is closed
// (additionalProperties: false), so a client-set server-owned property (`id`, `status`, `version`, `simulated`,
// `createdAt`, `organizationId` where not declared, …) is rejected with 400 VALIDATION_ERROR and nothing is written; a
// declared `organizationId` naming another organization is 403. Excessive exposure: every response schema is closed too
// (responses are validated in tests, so an extra field would fail them), the admin key list never carries the key or
// its hash, and one organization's lists never show another's objects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byId, doc, expectError, operations, organizationSnapshot } from "../helpers/security.ts";
import { exampleRequest, type SpecOperation } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES } from "../helpers/v2.ts";

type Json = Record<string, unknown>;
const ORG = "org_sec_bopla";
const OTHER = "org_sec_bopla_other";
const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";

/** Server-owned properties a client might try to set, with plausible values. */
const SERVER_OWNED: Record<string, unknown> = {
  id: "wal_chosenByTheClient000000",
  status: "completed",
  version: 99,
  simulated: false,
  createdAt: "2020-01-01T00:00:00.000Z",
  updatedAt: "2020-01-01T00:00:00.000Z",
  organizationId: OTHER,
  environment: "production",
  apiKeyId: "key_someoneElse",
};

const resolve = (node: unknown): Json => {
  let value = node as Json;
  while (value && typeof value.$ref === "string") {
    let target: unknown = doc;
    for (const part of (value.$ref as string).slice(2).split("/")) target = (target as Json)[part];
    value = target as Json;
  }
  return value;
};
/** Top-level properties a body schema declares, across its oneOf/anyOf/allOf shapes. */
function declared(schema: unknown, out = new Set<string>()): Set<string> {
  const node = resolve(schema);
  for (const key of ["oneOf", "anyOf", "allOf"]) for (const sub of (node[key] ?? []) as unknown[]) declared(sub, out);
  for (const name of Object.keys((node.properties ?? {}) as Json)) out.add(name);
  return out;
}
const bodySchema = (op: SpecOperation) =>
  (((op.raw.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema;

const withBody = operations.filter((op) => bodySchema(op) !== undefined);
const keyedWithBody = withBody.filter((op) => op.operation.security === "apiKey");

let server: TestServer;
let call: ReturnType<typeof api>;
let other: ReturnType<typeof api>;

beforeAll(async () => {
  // Response validation off: this file sends to every operation, compiling each one's response validators costs
  // ~0.4 s of CPU, and the answers asserted are error shapes checked by expectError. That responses carry no
  // undocumented field follows from the closed response schemas (asserted below) and test/http, which validates them.
  server = await startTestServer({ env: { VALIDATE_RESPONSES: "false" } });
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES })).key);
  other = api(server.url, (await server.createKey({ organizationId: OTHER, scopes: ALL_WRITE_SCOPES })).key);
});
afterAll(() => server?.close());

describe("the contract", () => {
  it("every request body schema is closed (additionalProperties: false in each shape)", () => {
    const open: string[] = [];
    const check = (label: string, schema: unknown) => {
      const node = resolve(schema);
      const shapes = [...((node.oneOf ?? []) as unknown[]), ...((node.anyOf ?? []) as unknown[])];
      // A schema that adds rules to a closed one through allOf (e.g. "at least one of") is as closed as that one.
      const closedMember = ((node.allOf ?? []) as unknown[]).some((member) => resolve(member).additionalProperties === false);
      if (shapes.length > 0) for (const shape of shapes) check(label, shape);
      else if (node.additionalProperties !== false && !closedMember) open.push(label);
    };
    for (const op of withBody) check(op.operation.operationId, bodySchema(op));
    expect(open).toEqual([]);
  });

  it("every response object schema is closed, except the RFC 9457 problem (extension members are allowed there)", () => {
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    const open = Object.entries(schemas)
      // A schema that extends another through allOf is closed by `unevaluatedProperties: false` (JSON Schema 2020-12:
      // it sees the properties the allOf branch declares, which `additionalProperties` would not): the named events.
      .filter(([, s]) => s.type === "object" && s.properties && s.additionalProperties !== false && s.unevaluatedProperties !== false)
      .map(([name]) => name);
    // StageResultBase is only ever used through allOf in the closed per-stage results. EventEnvelope is only used
    // through allOf in the request bodies of the top-level `webhooks` (what we POST to endpoints), never in a response:
    // the events API answers the closed `Event`. A custody wallet's policy (and its limits) is the description's "any
    // JSON": it is returned exactly as the client gave it, members this server does not enforce included.
    expect(open.sort()).toEqual(["CustodyAssetLimit", "CustodyWalletPolicy", "EventEnvelope", "Problem", "StageResultBase"]);
  });
});

describe("mass assignment", () => {
  it("a server-owned property in any API-key request body is 400 VALIDATION_ERROR, and nothing is written", async () => {
    const before = await organizationSnapshot(server, ORG);
    const wrong: string[] = [];
    let sent = 0;
    for (const op of keyedWithBody) {
      const names = declared(bodySchema(op));
      const example = exampleRequest(doc, op, ORG);
      for (const [property, value] of Object.entries(SERVER_OWNED)) {
        if (names.has(property)) continue;
        sent++;
        const body = { ...(example.body as Json | undefined), [property]: value };
        const res = await call(example.method, example.path, body, { ...example.headers });
        if (res.status !== 400 || !["VALIDATION_ERROR", "invalid_request"].includes(res.json?.code)) {
          wrong.push(`${op.operation.operationId} + ${property}: ${res.status} ${res.text}`);
          continue;
        }
        expectError(res, 400, "VALIDATION_ERROR", example.path);
        expect(JSON.stringify(res.json.errors ?? res.json)).toContain(property);
      }
    }
    expect(sent).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
    expect(await organizationSnapshot(server, ORG)).toEqual(before);
  });

  it("a declared organizationId naming another organization is 403 FORBIDDEN, and nothing is written for either", async () => {
    const declaring = keyedWithBody.filter((op) => declared(bodySchema(op)).has("organizationId"));
    expect(declaring.length).toBeGreaterThan(10);
    const before = [await organizationSnapshot(server, ORG), await organizationSnapshot(server, OTHER)];
    for (const op of declaring) {
      const example = exampleRequest(doc, op);
      const res = await call(example.method, example.path, { ...(example.body as Json), organizationId: OTHER }, example.headers);
      expectError(res, 403, "FORBIDDEN", example.path);
    }
    expect([await organizationSnapshot(server, ORG), await organizationSnapshot(server, OTHER)]).toEqual(before);
  });

  it("admin creates accept only their declared properties too", async () => {
    const admin = api(server.url, server.adminToken);
    for (const op of withBody.filter((o) => o.operation.security === "adminToken")) {
      const example = exampleRequest(doc, op, ORG);
      const res = await admin(example.method, example.path, { ...(example.body as Json), id: "key_mine", hash: "00" }, example.headers);
      expectError(res, 400, "VALIDATION_ERROR", example.path);
    }
  });

  it("a created object carries the server's values", async () => {
    const started = Date.now();
    const res = await call("POST", "/api/v1/wallets", { chain: "base" });
    expect(res.status).toBe(201);
    expect(res.json.id).toMatch(/^wal_[A-Za-z0-9]{22}$/);
    expect(Math.abs(Date.parse(res.json.createdAt) - started)).toBeLessThan(60_000);
    const row = await server.db.prisma.wallet.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(row).toMatchObject({ organizationId: ORG, environment: "sandbox" });
  });
});

describe("excessive data exposure", () => {
  it("the admin key list and the created key never carry the key's hash; the list never carries the key", async () => {
    const created = await server.createKey({ organizationId: ORG, scopes: ["wallets:read"] });
    const row = await server.db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    const list = await api(server.url, server.adminToken)("GET", `/api/admin/keys?organizationId=${ORG}`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(created.key);
    expect(list.text).not.toContain(row.hash);
    expect(list.text).not.toContain(created.key.slice(20));
    const entry = list.json.data.find((k: Json) => k.id === created.id);
    expect(Object.keys(entry).sort()).toEqual(
      Object.keys(resolve((doc.components as Json & { schemas: Json }).schemas.ApiKey).properties as Json).sort(),
    );
    expect(created.key.startsWith(entry.prefix)).toBe(true);
    expect(JSON.stringify(created)).not.toContain(row.hash);
  });

  it("another organization's lists, balances and metrics show none of this organization's objects", async () => {
    const wallet = await call("POST", "/api/v1/wallets", { chain: "base", label: "mine" });
    const payment = await call("POST", "/api/v1/payments", { amount: "10.00", stablecoin: "USDC", chain: "base", toAddress: EVM });
    expect([wallet.status, payment.status]).toEqual([201, 201]);
    const seen = [
      await other("GET", "/api/v1/wallets?limit=100"),
      await other("GET", "/api/v1/payments?limit=100"),
      await other("GET", "/api/v1/balances"),
      await other("GET", "/api/v2/agent/treasury/issuance-requests"),
    ];
    for (const res of seen) {
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain(wallet.json.id);
      expect(res.text).not.toContain(payment.json.id);
      expect(res.text).not.toContain(ORG);
    }
    expect(seen[0]?.json.count).toBe(0);
    expect(seen[1]?.json.count).toBe(0);
    // With no activity of its own, the other organization's metric is the labelled sample series, not our live data.
    const metric = await other("GET", "/api/metric/payments.count?range=7d");
    expect(metric.status, metric.text).toBe(200);
    expect(metric.json.source).toBe("sample");
    expect(byId("getMetric").operation.scopes).toEqual(["analytics:read"]);
  });
});
