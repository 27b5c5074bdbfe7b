// Issuer treasury over HTTP: a launched token's on-chain supply in treasury status, mint and burn requests decided by a
// second person without any transaction being sent, the issuance-request reads, and every error code the description
// lists for treasury/mint, treasury/burn, treasury/status and treasury/stress-test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintRequest } from "../../server/idempotency/idempotency-key.ts";
import { HOLDER, INITIAL_SUPPLY, type LaunchedToken, launchToken, SIGNER, TREASURY } from "../helpers/contracts.ts";
import { deciderWithKey } from "../helpers/members.ts";
import { type SwitchableRateLimiter, switchableRateLimiter } from "../helpers/switchable-rate-limiter.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";

const T = "/api/v2/agent/treasury";
const ZERO = "0x0000000000000000000000000000000000000000";
const DEAD = "0x000000000000000000000000000000000000dEaD";

let server: TestServer;
let limiter: SwitchableRateLimiter;
let alice: ReturnType<typeof api>;
let bob: ReturnType<typeof api>;
let reader: ReturnType<typeof api>;
let aliceKeyId: string;
let token: LaunchedToken;

const mintBody = (overrides: Record<string, unknown> = {}) => ({
  issuerId: token.issuerId,
  amountMinor: "250000000",
  signerAddress: SIGNER,
  to: HOLDER,
  reason: "Reserve top-up",
  ...overrides,
});
const burnBody = (overrides: Record<string, unknown> = {}) => ({
  issuerId: token.issuerId,
  amountMinor: "100000000",
  signerAddress: SIGNER,
  from: TREASURY,
  ...overrides,
});
const statusBody = (overrides: Record<string, unknown> = {}) => ({
  contractAddress: token.contractAddress,
  chain: "sandbox",
  ...overrides,
});
const stressBody = (overrides: Record<string, unknown> = {}, scenario: Record<string, unknown> = {}) => ({
  contractAddress: token.contractAddress,
  chain: "sandbox",
  // Defaults spelled out: the fingerprint of an idempotent request covers the body as validated (defaults applied).
  scenario: {
    reserveRatio: "1.02",
    redemptionShockPercent: "25",
    reserveHaircutPercent: "0",
    pegDeviation: "0",
    horizonDays: 30,
    ...scenario,
  },
  ...overrides,
});

const onChainSupply = async () => (await alice("POST", `${T}/status`, statusBody())).json.totalSupply.valueMinor as string;
const admin = (method: string, path: string, body?: unknown) =>
  api(server.url)(method, path, body, { authorization: `Bearer ${server.adminToken}` });
const setCapabilities = (organizationId: string, chainCapabilities: object) =>
  admin("PUT", `/api/admin/organizations/${organizationId}/settings`, { chainCapabilities });

beforeAll(async () => {
  limiter = switchableRateLimiter();
  server = await startTestServer({ rateLimiter: limiter });
  const aliceKey = await server.createKey({ scopes: ["wallets:write", "projects:write"], actor: "alice" });
  aliceKeyId = aliceKey.id;
  alice = api(server.url, aliceKey.key);
  bob = await deciderWithKey(server, "org_test", (await server.createKey({ scopes: ["wallets:write"], actor: "bob" })).key);
  reader = api(server.url, (await server.createKey({ scopes: ["wallets:read"], actor: "carol" })).key);
  token = await launchToken(alice);
}, 120_000);
afterAll(() => server?.close());

describe("acceptance: launch → status → mint request → second-person approval → nothing sent", () => {
  it("approval changes the request's state, but no transaction is sent and the on-chain supply is unchanged", async () => {
    // Total supply of the launched token, read on chain (the initial supply minted at deployment).
    const status = await alice("POST", `${T}/status`, statusBody());
    expect(status.status, status.text).toBe(200);
    expect(status.json.totalSupply).toMatchObject({ valueMinor: INITIAL_SUPPLY, decimals: 6, source: "chain_read:sandbox" });
    expect(status.json).toMatchObject({ asset: "CPUSD", simulated: true });
    for (const field of ["circulatingSupply", "reserveRatio", "pegPrice"]) {
      expect(status.json[field]).toEqual({ value: null, reason: "source_not_connected", source: null });
    }
    const chainLog = await server.db.prisma.sandboxChainTransaction.count();

    const minted = await alice("POST", `${T}/mint`, mintBody(), idem());
    expect(minted.status, minted.text).toBe(201);
    expect(minted.json).toMatchObject({
      kind: "mint",
      status: "pending_approval",
      issuerId: token.issuerId,
      contractAddress: token.contractAddress,
      chain: "sandbox",
      amountMinor: "250000000",
      signerAddress: SIGNER,
      to: HOLDER,
      from: null,
      transaction: null,
      simulated: true,
      requestedBy: { actor: "alice", apiKeyId: aliceKeyId },
      approval: { status: "pending", decidedBy: null },
    });
    const id = minted.json.issuanceRequestId as string;
    const approvalId = minted.json.approvalRequestId as string;
    const approval = await server.db.prisma.approvalRequest.findUnique({ where: { id: approvalId } });
    expect(approval).toMatchObject({
      kind: "issuance",
      action: "treasury.mint",
      scope: "wallets:write",
      resourceId: id,
      status: "pending",
    });
    expect(await server.db.prisma.activityEvent.count({ where: { type: "issuance_request.created", resourceId: id } })).toBe(1);

    // The requester cannot approve their own request: no API key decides (only a member's session does).
    const selfApproval = await alice("POST", `/api/v2/agent/approvals/${approvalId}/approve`, {}, idem());
    expect(selfApproval.status).toBe(403);
    expect(selfApproval.json.code).toBe("SESSION_REQUIRED");
    expect((await reader("GET", `${T}/issuance-requests/${id}`)).json.status).toBe("pending_approval");

    // A second person approves.
    const approved = await bob(
      "POST",
      `/api/v2/agent/approvals/${approvalId}/approve`,
      { reason: "Matches the custodian statement" },
      idem(),
    );
    expect(approved.status, approved.text).toBe(200);
    const read = await reader("GET", `${T}/issuance-requests/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      status: "approved",
      transaction: null,
      // Decided by a person (bob's approver: a member with a verified second factor), whose id stands for the key's.
      approval: {
        status: "approved",
        decidedBy: { apiKeyId: expect.stringMatching(/^mem_/) },
        decisionReason: "Matches the custodian statement",
      },
    });

    // Nothing was sent: the chain's log did not grow and the on-chain total supply is unchanged.
    expect(await server.db.prisma.sandboxChainTransaction.count()).toBe(chainLog);
    expect(await onChainSupply()).toBe(INITIAL_SUPPLY);

    const list = await reader("GET", `${T}/issuance-requests?status=approved&issuerId=${token.issuerId}`);
    expect(list.status).toBe(200);
    expect(list.json.data.map((r: { issuanceRequestId: string }) => r.issuanceRequestId)).toContain(id);
    expect(list.json.data.every((r: { status: string }) => r.status === "approved")).toBe(true);
  });

  it("a rejected request reads rejected; an undecided one past its deadline reads expired", async () => {
    const rejected = (await alice("POST", `${T}/mint`, mintBody({ amountMinor: "1" }), idem())).json;
    expect((await bob("POST", `/api/v2/agent/approvals/${rejected.approvalRequestId}/reject`, { reason: "no" }, idem())).status).toBe(200);
    expect((await reader("GET", `${T}/issuance-requests/${rejected.issuanceRequestId}`)).json).toMatchObject({
      status: "rejected",
      approval: { status: "rejected" },
    });

    const stale = (await alice("POST", `${T}/mint`, mintBody({ amountMinor: "2" }), idem())).json;
    await server.db.prisma.approvalRequest.update({
      where: { id: stale.approvalRequestId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await reader("GET", `${T}/issuance-requests/${stale.issuanceRequestId}`)).json.status).toBe("expired");
    const expired = await reader("GET", `${T}/issuance-requests?status=expired`);
    expect(expired.json.data.map((r: { issuanceRequestId: string }) => r.issuanceRequestId)).toEqual([stale.issuanceRequestId]);
    const pending = await reader("GET", `${T}/issuance-requests?status=pending_approval`);
    expect(pending.json.data.map((r: { issuanceRequestId: string }) => r.issuanceRequestId)).not.toContain(stale.issuanceRequestId);
    expect((await bob("POST", `/api/v2/agent/approvals/${stale.approvalRequestId}/approve`, {}, idem())).status).toBe(409);
  });

  it("a burn up to the holder's on-chain balance is requested; the list filters by kind and pages", async () => {
    const burned = await alice("POST", `${T}/burn`, burnBody({ amountMinor: INITIAL_SUPPLY }), idem());
    expect(burned.status, burned.text).toBe(201);
    expect(burned.json).toMatchObject({ kind: "burn", from: TREASURY, to: null, status: "pending_approval" });
    const approval = await server.db.prisma.approvalRequest.findUnique({ where: { id: burned.json.approvalRequestId } });
    expect(approval?.action).toBe("treasury.burn");
    const burns = await reader("GET", `${T}/issuance-requests?kind=burn`);
    expect(burns.json.data.every((r: { kind: string }) => r.kind === "burn")).toBe(true);
    const page = await reader("GET", `${T}/issuance-requests?limit=1&offset=1`);
    expect(page.json).toMatchObject({ limit: 1, offset: 1 });
    expect(page.json.data).toHaveLength(1);
    expect(page.json.count).toBeGreaterThanOrEqual(4);
    expect(await onChainSupply()).toBe(INITIAL_SUPPLY);
  });

  it("the list pages by cursor with its filters, counts across pages, and refuses offset with a cursor", async () => {
    const list = (query: string) => reader("GET", `${T}/issuance-requests?kind=mint&${query}`);
    const all = (await list("limit=100")).json;
    expect(all.count).toBe(all.data.length);
    expect(all.count).toBeGreaterThanOrEqual(3);
    const id = (r: { issuanceRequestId: string }) => r.issuanceRequestId;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`limit=2${cursor ? `&startingAfter=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.count).toBe(all.count);
      seen.push(...res.json.data.map(id));
      cursor = res.json.nextCursor;
      expect(cursor).toBe(res.json.hasMore ? res.json.data.at(-1).issuanceRequestId : null);
    } while (cursor);
    expect(seen).toEqual(all.data.map(id));
    const skipped = (await list("limit=1&offset=1")).json;
    expect(skipped.data.map(id)).toEqual([all.data[1].issuanceRequestId]);
    expect(skipped).toMatchObject({ hasMore: true, nextCursor: all.data[1].issuanceRequestId });
    const both = await list(`offset=1&startingAfter=${all.data[0].issuanceRequestId}`);
    expect(both.status).toBe(400);
    expect(both.json.errors.map((e: { path: string }) => e.path)).toEqual(["/query/offset"]);
  });

  it("issuance requests are private to the organization and environment", async () => {
    const id = (await alice("POST", `${T}/mint`, mintBody({ amountMinor: "3" }), idem())).json.issuanceRequestId;
    const other = api(server.url, (await server.createKey({ organizationId: "org_other", scopes: ["wallets:read"] })).key);
    expect((await other("GET", `${T}/issuance-requests/${id}`)).status).toBe(404);
    expect((await other("GET", `${T}/issuance-requests`)).json.count).toBe(0);
    expect((await reader("GET", `${T}/issuance-requests/ir_unknown`)).status).toBe(404);
  });
});

describe("metrics and settings", () => {
  it("issuance requests feed the treasury.issuance_requests metric", async () => {
    const analytics = api(server.url, (await server.createKey({ scopes: ["analytics:read"] })).key);
    expect((await alice("POST", `${T}/mint`, mintBody({ amountMinor: "6" }), idem())).status).toBe(201);
    const created = await server.db.prisma.issuanceRequest.count({ where: { organizationId: "org_test" } });
    const res = await analytics("GET", "/api/metric/treasury.issuance_requests?range=7d");
    expect(res.status).toBe(200);
    expect(res.json.source).toBe("live");
    expect(res.json.points.reduce((sum: number, p: { value: number }) => sum + p.value, 0)).toBe(created);
  });

  it("chainCapabilities is an organization setting: PUT alone keeps the policy, GET shows it, {} enables everything again", async () => {
    const path = "/api/admin/organizations/org_test/settings";
    const policy = (await admin("GET", path)).json.policy;
    const put = await admin("PUT", path, { chainCapabilities: { base: { mintBurn: false, stressTest: true } } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ organizationId: "org_test", policy, chainCapabilities: { base: { mintBurn: false, stressTest: true } } });
    expect((await admin("GET", path)).json.chainCapabilities).toEqual({ base: { mintBurn: false, stressTest: true } });
    for (const bad of [
      {},
      { chainCapabilities: { Base: { mintBurn: false } } },
      { chainCapabilities: { base: { mint: false } } },
      { chainCapabilities: { base: { mintBurn: "no" } } },
    ]) {
      expect((await admin("PUT", path, bad)).status).toBe(400);
    }
    expect((await admin("PUT", path, { chainCapabilities: {} })).json).toEqual({ organizationId: "org_test", policy });
  });
});

describe("treasury/mint and treasury/burn: error codes", () => {
  it.each([
    ["mint", "zero amount", () => mintBody({ amountMinor: "0" }), "/body/amountMinor"],
    ["mint", "a signer not authorised for the issuer", () => mintBody({ signerAddress: HOLDER }), "/body/signerAddress"],
    ["mint", "the zero address as recipient", () => mintBody({ to: ZERO }), "/body/to"],
    ["mint", "the token contract as recipient", () => mintBody({ to: token.contractAddress }), "/body/to"],
    ["mint", "a recipient failing its EIP-55 checksum", () => mintBody({ to: "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }), "/body/to"],
    ["burn", "zero amount", () => burnBody({ amountMinor: "0" }), "/body/amountMinor"],
    [
      "burn",
      "more than the holder's on-chain balance",
      () => burnBody({ amountMinor: (BigInt(INITIAL_SUPPLY) + 1n).toString() }),
      "/body/amountMinor",
    ],
    ["burn", "a holder without tokens", () => burnBody({ from: HOLDER }), "/body/amountMinor"],
    ["burn", "a signer not authorised for the issuer", () => burnBody({ signerAddress: TREASURY }), "/body/signerAddress"],
    ["burn", "the zero address as holder", () => burnBody({ from: ZERO }), "/body/from"],
  ])("%s: 422 PRECHECK_FAILED for %s, and nothing is recorded", async (kind, _name, body, path) => {
    const before = await server.db.prisma.issuanceRequest.count();
    const res = await alice("POST", `${T}/${kind}`, body(), idem());
    expect(res.status, res.text).toBe(422);
    expect(res.json.code).toBe("PRECHECK_FAILED");
    expect(res.json.errors[0].path).toBe(path);
    expect(await server.db.prisma.issuanceRequest.count()).toBe(before);
  });

  it.each(["mint", "burn"])("%s: 404 NOT_FOUND for an unknown issuer and for another organization's issuer", async (kind) => {
    const body = kind === "mint" ? mintBody : burnBody;
    expect((await alice("POST", `${T}/${kind}`, body({ issuerId: "iss_unknown" }), idem())).json.code).toBe("NOT_FOUND");
    const other = api(server.url, (await server.createKey({ organizationId: "org_other", scopes: ["wallets:write"] })).key);
    const res = await other("POST", `${T}/${kind}`, body(), idem());
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("NOT_FOUND");
  });

  it.each(["mint", "burn"])(
    "%s: 403 CHAIN_CAPABILITY_DISABLED when the organization disabled mint/burn on the issuer's chain",
    async (kind) => {
      const body = kind === "mint" ? mintBody : burnBody;
      expect((await setCapabilities("org_test", { sandbox: { mintBurn: false } })).status).toBe(200);
      try {
        const res = await alice("POST", `${T}/${kind}`, body(), idem());
        expect(res.status).toBe(403);
        expect(res.json).toMatchObject({ code: "CHAIN_CAPABILITY_DISABLED", chain: "sandbox", capability: "mintBurn" });
        // Another chain's setting does not matter.
        await setCapabilities("org_test", { ethereum: { mintBurn: false } });
        expect((await alice("POST", `${T}/${kind}`, body({ amountMinor: "4" }), idem())).status).toBe(201);
      } finally {
        await setCapabilities("org_test", {});
      }
    },
  );

  it.each(["mint", "burn"])("%s: 400 IDEMPOTENCY_KEY_REQUIRED without a key, 400 VALIDATION_ERROR for a malformed body", async (kind) => {
    const body = kind === "mint" ? mintBody : burnBody;
    const noKey = await alice("POST", `${T}/${kind}`, body());
    expect(noKey.status).toBe(400);
    expect(noKey.json.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
    for (const bad of [
      body({ amountMinor: "1.5" }),
      body({ issuerId: undefined }),
      body({ extra: true }),
      body({ signerAddress: "0x123" }),
    ]) {
      const res = await alice("POST", `${T}/${kind}`, bad, idem());
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("VALIDATION_ERROR");
    }
  });

  it.each(["mint", "burn"])("%s: 424 PROVIDER_NOT_CONNECTED for a production key without a token_issuance connection", async (kind) => {
    const production = api(server.url, (await server.createKey({ environment: "production", scopes: ["wallets:write"] })).key);
    const res = await production("POST", `${T}/${kind}`, kind === "mint" ? mintBody() : burnBody(), idem());
    expect(res.status).toBe(424);
    expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
  });

  it.each(["mint", "burn"])("%s: 503 STORAGE_UNAVAILABLE when the issuance request cannot be stored; nothing is recorded", async (kind) => {
    const before = { requests: await server.db.prisma.issuanceRequest.count(), approvals: await server.db.prisma.approvalRequest.count() };
    await failIssuanceInserts("08006");
    try {
      const headers = idem();
      const res = await alice("POST", `${T}/${kind}`, kind === "mint" ? mintBody() : burnBody(), headers);
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("STORAGE_UNAVAILABLE");
      expect(res.headers.get("retry-after")).not.toBeNull();
      expect(await server.db.prisma.issuanceRequest.count()).toBe(before.requests);
      expect(await server.db.prisma.approvalRequest.count()).toBe(before.approvals);
      await restoreIssuanceInserts();
      // Transient: the key was released, so the retry executes.
      expect((await alice("POST", `${T}/${kind}`, kind === "mint" ? mintBody() : burnBody(), headers)).status).toBe(201);
    } finally {
      await restoreIssuanceInserts();
    }
  });

  it.each(["mint", "burn"])("%s: 500 INTERNAL_ERROR on an unexpected database error, without internals", async (kind) => {
    await failIssuanceInserts("XX000");
    try {
      const res = await alice("POST", `${T}/${kind}`, kind === "mint" ? mintBody() : burnBody(), idem());
      expect(res.status).toBe(500);
      expect(res.json.code).toBe("INTERNAL_ERROR");
      expect(res.text).not.toContain("simulated");
    } finally {
      await restoreIssuanceInserts();
    }
  });

  it("burn: 503 SOURCE_NOT_AVAILABLE when the chain reader cannot read the holder's balance", async () => {
    await server.db.prisma.issuer.create({
      data: {
        id: "iss_unreadable",
        organizationId: "org_test",
        environment: "sandbox",
        projectId: "cprj_unreadable",
        contractAddress: DEAD,
        chain: "sandbox",
        asset: "DEAD",
        decimals: 6,
        signers: [SIGNER],
      },
    });
    const res = await alice("POST", `${T}/burn`, burnBody({ issuerId: "iss_unreadable" }), idem());
    expect(res.status).toBe(503);
    expect(res.json.code).toBe("SOURCE_NOT_AVAILABLE");
  });
});

describe("treasury/status: error codes", () => {
  it("400 VALIDATION_ERROR for a malformed body or an address failing its checksum; 404 NOT_FOUND for an address holding no token", async () => {
    for (const body of [{}, statusBody({ contractAddress: "0x12" }), statusBody({ extra: 1 })]) {
      expect((await alice("POST", `${T}/status`, body)).json.code).toBe("VALIDATION_ERROR");
    }
    const checksum = await alice("POST", `${T}/status`, statusBody({ contractAddress: "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }));
    expect(checksum.status).toBe(400);
    const empty = await alice("POST", `${T}/status`, statusBody({ contractAddress: HOLDER }));
    expect(empty.status).toBe(404);
    expect(empty.json).toMatchObject({ code: "NOT_FOUND", errors: [{ path: "/body/contractAddress" }] });
  });

  it("400 UNSUPPORTED_CHAIN for a chain no reader of the organization supports", async () => {
    const res = await alice("POST", `${T}/status`, statusBody({ chain: "ethereum" }));
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("UNSUPPORTED_CHAIN");
  });

  it("424 PROVIDER_NOT_CONNECTED for a production key without a chain_read connection", async () => {
    const production = api(server.url, (await server.createKey({ environment: "production", scopes: ["wallets:write"] })).key);
    const res = await production("POST", `${T}/status`, statusBody());
    expect(res.status).toBe(424);
    expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
  });

  it("503 SOURCE_NOT_AVAILABLE when the chain reader fails (sandbox magic address)", async () => {
    const res = await alice("POST", `${T}/status`, statusBody({ contractAddress: DEAD }));
    expect(res.status).toBe(503);
    expect(res.json.code).toBe("SOURCE_NOT_AVAILABLE");
  });

  it("a connected reserve source supplies what it reports; what it does not report stays null (never estimated)", async () => {
    const org = "org_reserve_status";
    const key = api(server.url, (await server.createKey({ organizationId: org, scopes: ["wallets:write"] })).key);
    await connect(server, {
      organizationId: org,
      category: "token_issuance",
      config: { reserveRatio: "1.0213", circulatingSupplyMinor: "940000000000" },
    });
    const res = await key("POST", `${T}/status`, statusBody());
    expect(res.status, res.text).toBe(200);
    expect(res.json.reserveRatio).toEqual({ value: "1.0213", reason: null, source: "token_issuance:sandbox" });
    expect(res.json.circulatingSupply).toEqual({ value: "940000000000", reason: null, source: "token_issuance:sandbox" });
    expect(res.json.pegPrice).toEqual({ value: null, reason: "source_not_connected", source: null });
    expect(res.json.totalSupply.valueMinor).toBe(INITIAL_SUPPLY);
  });
});

describe("treasury/stress-test: error codes", () => {
  it("400 UNSUPPORTED_CHAIN and 400 VALIDATION_ERROR", async () => {
    expect((await alice("POST", `${T}/stress-test`, stressBody({ chain: "polygon" }))).json.code).toBe("UNSUPPORTED_CHAIN");
    for (const body of [
      stressBody({ scenario: undefined }),
      stressBody({}, { redemptionShockPercent: "101" }),
      stressBody({}, { reserveRatio: "-1" }),
    ]) {
      const res = await alice("POST", `${T}/stress-test`, body);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("VALIDATION_ERROR");
    }
  });

  it("403 CHAIN_CAPABILITY_DISABLED when stress tests are disabled on the chain", async () => {
    await setCapabilities("org_test", { sandbox: { stressTest: false } });
    try {
      const res = await alice("POST", `${T}/stress-test`, stressBody());
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ code: "CHAIN_CAPABILITY_DISABLED", capability: "stressTest" });
      // Mint and burn are still enabled.
      expect((await alice("POST", `${T}/mint`, mintBody({ amountMinor: "5" }), idem())).status).toBe(201);
    } finally {
      await setCapabilities("org_test", {});
    }
  });

  it("422 PRECHECK_FAILED for an address holding no token, an asset that is not the token's symbol, and a zero supply", async () => {
    const noToken = await alice("POST", `${T}/stress-test`, stressBody({ contractAddress: HOLDER }));
    expect(noToken.status).toBe(422);
    expect(noToken.json.code).toBe("PRECHECK_FAILED");
    const wrongAsset = await alice("POST", `${T}/stress-test`, stressBody({ asset: "OTHER" }));
    expect(wrongAsset.status).toBe(422);
    expect(wrongAsset.json.errors[0].path).toBe("/body/asset");
    const empty = await launchToken(alice, { asset: "ZERO", initialSupply: null });
    const zero = await alice("POST", `${T}/stress-test`, stressBody({ contractAddress: empty.contractAddress }));
    expect(zero.status).toBe(422);
    expect(zero.json.detail).toMatch(/total supply is zero/);
  });

  it("424 PROVIDER_NOT_CONNECTED for a production key without a chain_read connection", async () => {
    const production = api(server.url, (await server.createKey({ environment: "production", scopes: ["wallets:write"] })).key);
    expect((await production("POST", `${T}/stress-test`, stressBody())).status).toBe(424);
  });

  it("503 SOURCE_NOT_AVAILABLE when the chain reader fails", async () => {
    const res = await alice("POST", `${T}/stress-test`, stressBody({ contractAddress: DEAD }));
    expect(res.status).toBe(503);
    expect(res.json.code).toBe("SOURCE_NOT_AVAILABLE");
  });
});

// Codes every one of the four treasury endpoints answers the same way.
const ENDPOINTS = [
  { name: "mint", path: `${T}/mint`, body: () => mintBody(), keyRequired: true },
  { name: "burn", path: `${T}/burn`, body: () => burnBody(), keyRequired: true },
  { name: "status", path: `${T}/status`, body: () => statusBody(), keyRequired: false },
  { name: "stress-test", path: `${T}/stress-test`, body: () => stressBody(), keyRequired: false },
] as const;

describe.each(ENDPOINTS)("$name: the common codes", ({ path, body }) => {
  it("401 UNAUTHORIZED without a key or with an unknown key", async () => {
    expect((await api(server.url)("POST", path, body(), idem())).json.code).toBe("UNAUTHORIZED");
    const unknown = await api(server.url, "cp_sandbox_0123456789012345678901234567890123456789012")("POST", path, body(), idem());
    expect(unknown.status).toBe(401);
  });

  it("403 FORBIDDEN for a key without wallets:write, or another organization's organizationId", async () => {
    expect((await reader("POST", path, body(), idem())).json.code).toBe("FORBIDDEN");
    const res = await alice("POST", path, { ...body(), organizationId: "org_other" }, idem());
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
  });

  it("409 IDEMPOTENCY_IN_PROGRESS while the first request with the key runs, 422 IDEMPOTENCY_KEY_REUSED for another body", async () => {
    const key = `in-progress-${path}`;
    const future = new Date(Date.now() + 3_600_000);
    await server.db.prisma.idempotencyRecord.create({
      data: {
        id: `idem_${path.replace(/\W/g, "")}`,
        organizationId: "org_test",
        apiKeyId: aliceKeyId,
        method: "POST",
        path,
        key,
        state: "in_progress",
        lockToken: "held",
        fingerprint: fingerprintRequest("POST", path, body()),
        lockedUntil: future,
        expiresAt: future,
      },
    });
    const busy = await alice("POST", path, body(), { "idempotency-key": key });
    expect(busy.status).toBe(409);
    expect(busy.json.code).toBe("IDEMPOTENCY_IN_PROGRESS");
    const reused = await alice("POST", path, { ...body(), organizationId: "org_test" }, { "idempotency-key": key });
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("replays the first answer for the same key and body", async () => {
    const headers = idem();
    const first = await alice("POST", path, body(), headers);
    const second = await alice("POST", path, body(), headers);
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });

  it("429 RATE_LIMIT_EXCEEDED and 503 RATE_LIMIT_UNAVAILABLE from the rate limiter", async () => {
    try {
      limiter.mode = "exceeded";
      const limited = await alice("POST", path, body(), idem());
      expect(limited.status).toBe(429);
      expect(limited.json.code).toBe("RATE_LIMIT_EXCEEDED");
      limiter.mode = "down";
      const down = await alice("POST", path, body(), idem());
      expect(down.status).toBe(503);
      expect(down.json.code).toBe("RATE_LIMIT_UNAVAILABLE");
    } finally {
      limiter.mode = "allow";
    }
  });

  it("503 IDEMPOTENCY_UNAVAILABLE when the idempotency store fails", async () => {
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecord" RENAME TO "IdempotencyRecord_down"`);
    try {
      const res = await alice("POST", path, body(), idem());
      expect(res.status).toBe(503);
      expect(res.json.code).toBe("IDEMPOTENCY_UNAVAILABLE");
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecord_down" RENAME TO "IdempotencyRecord"`);
    }
  });
});

describe.each(ENDPOINTS.filter((e) => !e.keyRequired))("$name: 500 INTERNAL_ERROR", ({ path, body }) => {
  it("answers 500 INTERNAL_ERROR when its storage fails unexpectedly, without internals", async () => {
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "ProviderConnection" RENAME TO "ProviderConnection_down"`);
    try {
      const res = await alice("POST", path, body());
      expect(res.status).toBe(500);
      expect(res.json.code).toBe("INTERNAL_ERROR");
      expect(res.text).not.toContain("ProviderConnection");
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "ProviderConnection_down" RENAME TO "ProviderConnection"`);
    }
  });
});

/** Makes inserts into IssuanceRequest fail with `sqlstate` (08006: connection failure → unavailable; XX000: internal). */
async function failIssuanceInserts(sqlstate: string): Promise<void> {
  await server.db.prisma.$executeRawUnsafe(
    `CREATE OR REPLACE FUNCTION cp_test_fail_issuance() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'simulated storage failure' USING ERRCODE = '${sqlstate}'; END $$ LANGUAGE plpgsql`,
  );
  await server.db.prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS cp_test_fail_issuance ON "IssuanceRequest"`);
  await server.db.prisma.$executeRawUnsafe(
    `CREATE TRIGGER cp_test_fail_issuance BEFORE INSERT ON "IssuanceRequest" FOR EACH ROW EXECUTE FUNCTION cp_test_fail_issuance()`,
  );
}

async function restoreIssuanceInserts(): Promise<void> {
  await server.db.prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS cp_test_fail_issuance ON "IssuanceRequest"`);
}
