import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_settings";
const path = (org: string) => `/api/admin/organizations/${org}/settings`;

let server: TestServer;
let admin: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  admin = (method, p, body, headers = {}) => api(server.url)(method, p, body, { authorization: `Bearer ${server.adminToken}`, ...headers });
  await server.createKey({ organizationId: ORG, scopes: ["compliance:write"] });
});
afterAll(() => server?.close());

describe("GET /api/admin/organizations/{organizationId}/settings", () => {
  it("returns the defaults for an organization without settings", async () => {
    const res = await admin("GET", path(ORG));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ organizationId: ORG, policy: { blockedJurisdictions: [], maxAmountUsd: "1000000" } });
  });

  it("answers 404 not_found for an unknown organization", async () => {
    const res = await admin("GET", path("org_nobody"));
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer nope" }],
  ])("answers 401 with %s", async (_name, headers) => {
    const res = await api(server.url)("GET", path(ORG), undefined, headers);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("unauthorized");
  });

  it("answers 401 to an API key", async () => {
    const { key } = await server.createKey({ organizationId: ORG, scopes: ["compliance:write"] });
    const res = await api(server.url, key)("GET", path(ORG));
    expect(res.status).toBe(401);
  });
});

describe("PUT /api/admin/organizations/{organizationId}/settings", () => {
  it("replaces the policy, which GET then returns", async () => {
    const policy = { blockedJurisdictions: ["RU", "BY", "US-NY"], maxAmountUsd: "250000.50" };
    const put = await admin("PUT", path(ORG), { policy });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ organizationId: ORG, policy });
    expect((await admin("GET", path(ORG))).json).toEqual({ organizationId: ORG, policy });

    const next = { blockedJurisdictions: [], maxAmountUsd: "10" };
    expect((await admin("PUT", path(ORG), { policy: next })).json.policy).toEqual(next);
    expect((await admin("GET", path(ORG))).json.policy).toEqual(next);
  });

  it("keeps the organization's other settings", async () => {
    const org = "org_settings_other";
    await server.createKey({ organizationId: org, scopes: ["compliance:write"] });
    await server.db.prisma.organization.update({ where: { id: org }, data: { settings: { chains: { base: { mint: false } } } } });
    const res = await admin("PUT", path(org), { policy: { blockedJurisdictions: ["KP"], maxAmountUsd: "5" } });
    expect(res.status).toBe(200);
    const stored = await server.db.prisma.organization.findUnique({ where: { id: org } });
    expect(stored?.settings).toEqual({ chains: { base: { mint: false } }, policy: { blockedJurisdictions: ["KP"], maxAmountUsd: "5" } });
  });

  it("answers 404 for an unknown organization and creates nothing", async () => {
    const res = await admin("PUT", path("org_ghost"), { policy: { blockedJurisdictions: [], maxAmountUsd: "1" } });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
    expect(await server.db.prisma.organization.findUnique({ where: { id: "org_ghost" } })).toBeNull();
  });

  it.each<[string, unknown]>([
    ["no policy", {}],
    ["a missing maxAmountUsd", { policy: { blockedJurisdictions: [] } }],
    ["a missing blockedJurisdictions", { policy: { maxAmountUsd: "1" } }],
    ["a lower-case jurisdiction", { policy: { blockedJurisdictions: ["ru"], maxAmountUsd: "1" } }],
    ["a duplicate jurisdiction", { policy: { blockedJurisdictions: ["RU", "RU"], maxAmountUsd: "1" } }],
    ["a negative limit", { policy: { blockedJurisdictions: [], maxAmountUsd: "-1" } }],
    ["a numeric limit", { policy: { blockedJurisdictions: [], maxAmountUsd: 1000 } }],
    ["an unknown policy field", { policy: { blockedJurisdictions: [], maxAmountUsd: "1", minAmountUsd: "0" } }],
    ["an unknown top-level field", { policy: { blockedJurisdictions: [], maxAmountUsd: "1" }, chains: {} }],
  ])("rejects %s with 400 invalid_request and keeps the stored policy", async (_name, body) => {
    const before = (await admin("GET", path(ORG))).json;
    const res = await admin("PUT", path(ORG), body);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_request");
    expect((await admin("GET", path(ORG))).json).toEqual(before);
  });
});
