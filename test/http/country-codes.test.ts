// Country fields take assigned ISO 3166-1 alpha-2 codes only (format iso3166-alpha2 / iso3166-region in the spec):
// two letters no country has (QQ, ZZ, XX) are a 400 naming the field — never screened or stored as if they existed.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect } from "../helpers/v2.ts";
import { BANK_TRANSFER, sepaTransfer } from "../system/bodies.ts";

const ORG = "org_countries";
let server: TestServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  const key = await server.createKey({ organizationId: ORG, scopes: ["compliance:write", "payments:write"] });
  call = api(server.url, key.key);
  await connect(server, { organizationId: ORG, category: "bank_transfer" });
});
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown) =>
  api(server.url)(method, path, body, { authorization: `Bearer ${server.adminToken}` });

function expectFieldError(res: { status: number; json: { errors?: { path?: string; pointer?: string }[] } }, field: string) {
  expect(res.status).toBe(400);
  const paths = (res.json.errors ?? []).map((e) => e.path ?? e.pointer);
  expect(paths.some((p) => p?.includes(field))).toBe(true);
}

describe("compliance screening and policy", () => {
  it.each([
    ["jurisdiction[]", { jurisdiction: ["DE", "QQ"] }, "jurisdiction"],
    ["operatorJurisdiction", { operatorJurisdiction: "ZZ" }, "operatorJurisdiction"],
    ["a subdivision of no country", { receiverJurisdiction: "XX-1" }, "receiverJurisdiction"],
    ["a party country", { parties: [{ role: "receiver", name: "Some One", country: "QQ" }] }, "country"],
  ])("screen refuses %s", async (_name, body, field) => {
    expectFieldError(await call("POST", "/api/v2/agent/compliance/screen", body), field);
  });

  it("policy/evaluate refuses an unassigned code", async () => {
    expectFieldError(await call("POST", "/api/v2/agent/policy/evaluate", { senderJurisdiction: "ZZ" }), "senderJurisdiction");
  });

  it("assigned codes and subdivisions still pass (US, XK, US-NY)", async () => {
    const res = await call("POST", "/api/v2/agent/compliance/screen", { jurisdiction: ["US", "XK", "US-NY"] });
    expect(res.status).toBe(200);
  });

  it("the organization policy refuses an unassigned blocked jurisdiction", async () => {
    const res = await admin("PUT", `/api/admin/organizations/${ORG}/settings`, {
      policy: { blockedJurisdictions: ["RU", "QQ"], maxAmountUsd: "1000" },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain("blockedJurisdictions");
  });
});

describe("bank accounts", () => {
  it("a bank transfer to an account in QQ is 400 naming the field, and creates nothing", async () => {
    const body = sepaTransfer(`ref-${randomUUID().slice(0, 8)}`);
    const bad = { ...body, destination: { ...body.destination, country: "QQ" } };
    const res = await call("POST", BANK_TRANSFER, bad, { "idempotency-key": randomUUID() });
    expectFieldError(res, "country");
    const rows = await server.db.kysely.selectFrom("BankTransfer").select("id").where("organizationId", "=", ORG).execute();
    expect(rows).toHaveLength(0);
  });
});
