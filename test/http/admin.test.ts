// The operator API (bearer ADMIN_TOKEN): API keys and provider connections.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_admin";
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const API_KEY_FIELDS = [
  "actor",
  "createdAt",
  "environment",
  "id",
  "label",
  "organizationId",
  "prefix",
  "revokedAt",
  "scopes",
  "spendingLimits",
];

let server: TestServer;
let admin: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  admin = api(server.url, server.adminToken);
});
afterAll(() => server?.close());

/** createdAt has millisecond precision, so two rows may tie; the order must never go backwards. */
function expectNewestFirst(items: Array<{ createdAt: string }>) {
  const times = items.map((i) => Date.parse(i.createdAt));
  for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1] as number);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const createKey = (body: Record<string, unknown>) =>
  admin("POST", "/api/admin/keys", { organizationId: ORG, environment: "sandbox", ...body });

describe("admin token", () => {
  const endpoints: Array<[string, string, unknown?]> = [
    ["POST", "/api/admin/keys", { organizationId: ORG, environment: "sandbox", scopes: ["wallets:read"] }],
    ["GET", `/api/admin/keys?organizationId=${ORG}`],
    ["DELETE", "/api/admin/keys/key_x"],
    [
      "POST",
      "/api/admin/connections",
      { organizationId: ORG, environment: "sandbox", category: "custody", providerSlug: "simulator", reviewed: true },
    ],
    ["GET", `/api/admin/connections?organizationId=${ORG}`],
    ["DELETE", "/api/admin/connections/conn_x"],
  ];
  const credentials: Array<[string, Record<string, string>]> = [
    ["missing", {}],
    ["wrong", { authorization: "Bearer not-the-admin-token" }],
    ["a prefix of the right one", { authorization: "Bearer test-admin-token" }],
    ["in another scheme", { authorization: "Basic test-admin-token-0123456789" }],
  ];

  it.each(endpoints.flatMap(([method, path, body]) => credentials.map(([what, headers]) => [method, path, what, body, headers] as const)))(
    "%s %s with the token %s → 401",
    async (method, path, _what, body, headers) => {
      const res = await api(server.url)(method, path, body, headers);
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: expect.any(String), code: "unauthorized", requestId: res.headers.get("x-request-id") });
    },
  );

  it("an API key is not an admin token", async () => {
    const { key } = await server.createKey({ organizationId: ORG, scopes: ["wallets:write"] });
    expect((await api(server.url, key)("GET", `/api/admin/keys?organizationId=${ORG}`)).status).toBe(401);
  });

  it("nothing was created by the refused requests", async () => {
    const res = await admin("GET", `/api/admin/connections?organizationId=${ORG}`);
    expect(res.json.count).toBe(0);
  });
});

describe("POST /api/admin/keys", () => {
  it.each([
    ["sandbox", /^cp_sandbox_[0-9A-Za-z]{43}$/],
    ["production", /^cp_production_[0-9A-Za-z]{43}$/],
  ] as const)("creates a %s key shown once with its prefix", async (environment, pattern) => {
    const res = await createKey({ environment, scopes: ["payments:write", "wallets:read"] });
    expect(res.status).toBe(201);
    const { key, id, prefix } = res.json;
    expect(key).toMatch(pattern);
    expect(id).toMatch(/^key_[0-9A-Za-z]+$/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix).toBe(key.slice(0, `cp_${environment}_`.length + 8));
    expect(res.json).toEqual({
      id,
      key,
      prefix,
      organizationId: ORG,
      environment,
      scopes: ["payments:write", "wallets:read"],
      actor: id,
      label: null,
      createdAt: expect.stringMatching(ISO),
      revokedAt: null,
      spendingLimits: [],
    });
  });

  it("keeps a given actor and label", async () => {
    const res = await createKey({ scopes: ["cards:write"], actor: "alice@acme.example", label: "Cards backend" });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ actor: "alice@acme.example", label: "Cards backend" });
  });

  it("creates the organization on first use and binds the key to it", async () => {
    const res = await admin("POST", "/api/admin/keys", {
      organizationId: "org_brand_new",
      environment: "sandbox",
      scopes: ["wallets:write"],
    });
    expect(res.status).toBe(201);
    const wallet = await api(server.url, res.json.key)("POST", "/api/v1/wallets", { chain: "base" });
    expect(wallet.status).toBe(201);
    expect(await server.db.prisma.wallet.count({ where: { id: wallet.json.id, organizationId: "org_brand_new" } })).toBe(1);
  });

  it("stores only the SHA-256 hash of the key", async () => {
    const { json } = await createKey({ scopes: ["wallets:read"] });
    const record = await server.db.prisma.apiKey.findUniqueOrThrow({ where: { id: json.id } });
    expect(record.hash).toBe(sha256(json.key));
    for (const value of Object.values(record)) {
      expect(value).not.toBe(json.key);
      if (typeof value === "string") expect(value.includes(json.key.slice(-20))).toBe(false);
    }
  });

  it.each([
    ["an unknown scope resource", { scopes: ["money:write"] }],
    ["an unknown scope level", { scopes: ["wallets:admin"] }],
    ["a bare resource", { scopes: ["wallets"] }],
    ["no scopes", { scopes: [] }],
    ["duplicate scopes", { scopes: ["wallets:read", "wallets:read"] }],
    ["an unknown environment", { environment: "staging", scopes: ["wallets:read"] }],
    ["a malformed organization id", { organizationId: "org acme", scopes: ["wallets:read"] }],
    ["an unknown field", { scopes: ["wallets:read"], expiresAt: "2030-01-01" }],
    ["an empty actor", { scopes: ["wallets:read"], actor: "" }],
    ["scopes as a string", { scopes: "wallets:read" }],
  ])("refuses %s with 400 invalid_request", async (_name, patch) => {
    const res = await createKey(patch);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "invalid_request", errors: expect.any(Array) });
  });
});

describe("GET /api/admin/keys", () => {
  it("lists the organization's keys newest first, never the key or its hash", async () => {
    const org = "org_admin_list";
    const created: Array<{ id: string; key: string }> = [];
    for (const scopes of [["wallets:read"], ["payments:read"]]) {
      created.push((await admin("POST", "/api/admin/keys", { organizationId: org, environment: "sandbox", scopes })).json);
    }
    await admin("POST", "/api/admin/keys", { organizationId: "org_admin_elsewhere", environment: "sandbox", scopes: ["fx:read"] });
    const res = await admin("GET", `/api/admin/keys?organizationId=${org}`);
    expect(res.status).toBe(200);
    expect(res.json.count).toBe(2);
    expect(res.json.data.map((k: { id: string }) => k.id).sort()).toEqual(created.map((k) => k.id).sort());
    expectNewestFirst(res.json.data);
    for (const item of res.json.data) expect(Object.keys(item).sort()).toEqual(API_KEY_FIELDS);
    for (const { key } of created) {
      expect(res.text).not.toContain(key);
      expect(res.text).not.toContain(sha256(key));
    }
  });

  it("requires organizationId (400)", async () => {
    expect((await admin("GET", "/api/admin/keys")).status).toBe(400);
  });
});

describe("DELETE /api/admin/keys/{id}", () => {
  it("revokes at once: revokedAt set, the next request with the key is 401; revoking again returns the same key", async () => {
    const { json: created } = await createKey({ scopes: ["wallets:write"] });
    const user = api(server.url, created.key);
    expect((await user("GET", "/api/v1/wallets")).status).toBe(200);
    const revoked = await admin("DELETE", `/api/admin/keys/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ id: created.id, revokedAt: expect.stringMatching(ISO) });
    expect(revoked.json.key).toBeUndefined();
    const next = await user("GET", "/api/v1/wallets");
    expect(next.status).toBe(401);
    expect(next.json.code).toBe("unauthorized");
    const again = await admin("DELETE", `/api/admin/keys/${created.id}`);
    expect(again.status).toBe(200);
    expect(again.json.revokedAt).toBe(revoked.json.revokedAt);
    const listed = await admin("GET", `/api/admin/keys?organizationId=${ORG}`);
    expect(listed.json.data.find((k: { id: string }) => k.id === created.id).revokedAt).toBe(revoked.json.revokedAt);
  });

  it("an unknown key is 404 not_found", async () => {
    const res = await admin("DELETE", "/api/admin/keys/key_doesnotexist");
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: "not_found" });
  });
});

describe("connections", () => {
  const org = "org_admin_conn";
  const add = (body: Record<string, unknown>) =>
    admin("POST", "/api/admin/connections", {
      organizationId: org,
      environment: "sandbox",
      category: "custody",
      providerSlug: "simulator",
      reviewed: true,
      ...body,
    });

  it("adds (201), lists (200) and removes (204) a connection", async () => {
    const created = await add({ config: { reserveRatio: "1.02" }, category: "token_issuance" });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^conn_/),
      organizationId: org,
      environment: "sandbox",
      category: "token_issuance",
      providerSlug: "simulator",
      reviewed: true,
      config: { reserveRatio: "1.02" },
      createdAt: expect.stringMatching(ISO),
    });
    const unreviewed = await add({ reviewed: false, category: "custody" });
    expect(unreviewed.json).toMatchObject({ reviewed: false, config: {} });

    const listed = await admin("GET", `/api/admin/connections?organizationId=${org}`);
    expect(listed.status).toBe(200);
    expect(listed.json.count).toBe(2);
    expect(listed.json.data.map((c: { id: string }) => c.id).sort()).toEqual([unreviewed.json.id, created.json.id].sort());
    expectNewestFirst(listed.json.data);
    expect((await admin("GET", "/api/admin/connections?organizationId=org_admin_nobody")).json).toEqual({ count: 0, data: [] });

    const removed = await admin("DELETE", `/api/admin/connections/${created.json.id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    const after = await admin("GET", `/api/admin/connections?organizationId=${org}`);
    expect(after.json.data.map((c: { id: string }) => c.id)).toEqual([unreviewed.json.id]);
    const again = await admin("DELETE", `/api/admin/connections/${created.json.id}`);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ code: "not_found" });
  });

  it.each([
    ["an unknown category", { category: "lending" }],
    ["a malformed provider slug", { providerSlug: "Not A Slug" }],
    ["a provider slug this build has no adapter for", { providerSlug: "acme-custody" }],
    ["reviewed missing", { reviewed: undefined }],
    ["reviewed as a string", { reviewed: "yes" }],
    ["config not an object", { config: "x" }],
    ["an unknown field", { secret: "x" }],
  ])("refuses %s with 400", async (_name, patch) => {
    const res = await add(patch);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_request");
  });

  it("a provider slug this build has no adapter for names the valid ones (not a 500 on first use)", async () => {
    const res = await add({ category: "chain_read", providerSlug: "acme-node" });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain("/body/providerSlug");
    expect(res.json.error).toMatch(/valid: .*simulator/);
    expect(res.json.error).toContain("json_rpc");
  });

  // A simulator's results say `simulated: true`: a production key must get a provider's result or 424, never one.
  it.each(["custody", "bank_transfer", "card_issuance", "compliance_screening", "chain_read"])(
    "refuses the %s simulator for production with 400 naming /body/providerSlug",
    async (category) => {
      const res = await add({ environment: "production", category, providerSlug: "simulator" });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("invalid_request");
      expect(res.json.errors).toEqual([
        { path: "/body/providerSlug", message: expect.stringContaining("cannot be connected for production") },
      ]);
      expect(res.json.error).toContain(category === "chain_read" ? "live chain_read adapters: json_rpc" : `no live ${category} adapter`);
    },
  );

  it("still connects the simulator for sandbox, and a live adapter for production", async () => {
    expect((await add({ environment: "sandbox", category: "custody", providerSlug: "simulator" })).status).toBe(201);
    const live = await add({
      environment: "production",
      category: "chain_read",
      providerSlug: "json_rpc",
      config: { rpcUrls: { ethereum: "http://127.0.0.1:1" } },
    });
    expect(live.status).toBe(201);
  });

  it("removing an unknown connection is 404", async () => {
    expect((await admin("DELETE", "/api/admin/connections/conn_doesnotexist")).status).toBe(404);
  });
});

describe("concurrent first use of an organization", () => {
  // Both creations insert the organization row on first use (INSERT … ON CONFLICT DO NOTHING): ten at once must all
  // succeed and leave one organization row, never a 500 from the unique race.
  it.each([
    ["API keys", "/api/admin/keys", { environment: "sandbox", scopes: ["wallets:read"] }],
    ["connections", "/api/admin/connections", { environment: "sandbox", category: "custody", providerSlug: "simulator", reviewed: true }],
  ] as const)("10 concurrent %s creations for a new organization → all 201, one organization row", async (kind, path, body) => {
    const org = `org_race_${kind === "API keys" ? "keys" : "conn"}`;
    expect(await server.db.prisma.organization.count({ where: { id: org } })).toBe(0);
    const results = await Promise.all(Array.from({ length: 10 }, () => admin("POST", path, { organizationId: org, ...body })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.json.id)).size).toBe(10);
    expect(await server.db.prisma.organization.count({ where: { id: org } })).toBe(1);
    const listPath = `${path}?organizationId=${org}`;
    expect((await admin("GET", listPath)).json.count).toBe(10);
  });
});
