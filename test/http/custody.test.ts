// Custody: fails closed without a reviewed custody connection; wallets and transfers under four-eyes approval; balances
// from the provider; transfer state machine with optimistic concurrency (shape 3); status by either id; magic values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deciderWithKey } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem, insertConnectionRow } from "../helpers/v2.ts";

const ORG = "org_cust";
const WALLETS = "/api/v2/agent/custody/wallets";
const BALANCE = "/api/v2/agent/custody/wallets/balance";
const TRANSFERS = "/api/v2/agent/custody/transfers";
const STATUS = "/api/v2/agent/custody/transfers/status";
const APPROVE = (id: string) => `/api/v2/agent/approvals/${id}/approve`;
const REJECT = (id: string) => `/api/v2/agent/approvals/${id}/reject`;
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";
const SANCTIONED = "0x7F367cC41522cE07553e823bf3be79A889DEbe1B";
const DEAD = "0x000000000000000000000000000000000000dEaD";
const USDC_START = 1_000_000_000_000n;

type Call = ReturnType<typeof api>;
let server: TestServer;
let alice: Call;
let bob: Call;
let reader: Call;

beforeAll(async () => {
  server = await startTestServer();
  alice = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "alice" })).key);
  bob = await deciderWithKey(server, ORG, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key);
  reader = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["wallets:read"], actor: "carol" })).key);
});
afterAll(() => server?.close());

async function requestWallet(body: Record<string, unknown> = {}) {
  const res = await alice("POST", WALLETS, { label: "Treasury operations", chain: "base", type: "mpc", ...body }, idem());
  expect(res.status, res.text).toBe(201);
  return res.json;
}

async function activeWallet(body: Record<string, unknown> = {}) {
  const requested = await requestWallet(body);
  expect((await bob("POST", APPROVE(requested.approvalRequestId), {})).status).toBe(200);
  const res = await alice(
    "POST",
    WALLETS,
    { custodyWalletId: requested.custodyWalletId, approvalRequestId: requested.approvalRequestId },
    idem(),
  );
  expect(res.status, res.text).toBe(200);
  return res.json;
}

async function requestTransfer(walletId: string, body: Record<string, unknown> = {}) {
  const res = await alice("POST", TRANSFERS, { walletId, destination: CLEAN, asset: "USDC", amountMinor: "2500000000", ...body }, idem());
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A transfer taken to `submitted` (version 3). */
async function submittedTransfer(walletId: string, body: Record<string, unknown> = {}) {
  const requested = await requestTransfer(walletId, body);
  expect((await bob("POST", APPROVE(requested.approvalRequestId), {})).status).toBe(200);
  const res = await alice(
    "POST",
    TRANSFERS,
    { custodyTransferId: requested.custodyTransferId, approvalRequestId: requested.approvalRequestId },
    idem(),
  );
  expect(res.status, res.text).toBe(200);
  expect(res.json).toMatchObject({ status: "submitted", version: 3 });
  return res.json;
}

const advance = (id: string, expectedVersion: number) => alice("POST", TRANSFERS, { custodyTransferId: id, expectedVersion }, idem());
const row = (id: string) => server.db.prisma.custodyTransfer.findUniqueOrThrow({ where: { id } });

async function renamed<T>(table: string, work: () => Promise<T>): Promise<T> {
  await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "${table}" RENAME TO "${table}_down"`);
  try {
    return await work();
  } finally {
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "${table}_down" RENAME TO "${table}"`);
  }
}

describe("without a custody connection (fails closed)", () => {
  it("every custody endpoint and shape answers 424 PROVIDER_NOT_CONNECTED and writes nothing", async () => {
    const org = "org_cust_none";
    const key = api(server.url, (await server.createKey({ organizationId: org, scopes: ["wallets:write"], actor: "dan" })).key);
    // Neither an unreviewed connection nor a production one serves sandbox requests.
    await connect(server, { organizationId: org, category: "custody", reviewed: false });
    await insertConnectionRow(server, { organizationId: org, environment: "production", category: "custody" });
    const simBefore = await server.db.prisma.simCustodyTransfer.count();
    const calls: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      [WALLETS, { label: "Ops", chain: "base", type: "mpc", jurisdiction: ["DE"] }, idem()],
      [WALLETS, { custodyWalletId: "cw_000000000000000000000000", approvalRequestId: "apr_000000000000000000000000" }, idem()],
      [BALANCE, { walletId: "cw_000000000000000000000000" }, {}],
      [TRANSFERS, { walletId: "cw_000000000000000000000000", destination: SANCTIONED, asset: "USDC", amountMinor: "1" }, idem()],
      [TRANSFERS, { custodyTransferId: "ct_000000000000000000000000", approvalRequestId: "apr_000000000000000000000000" }, idem()],
      [TRANSFERS, { custodyTransferId: "ct_000000000000000000000000", expectedVersion: 1 }, idem()],
      [STATUS, { custodyTransferId: "ct_000000000000000000000000" }, {}],
      [STATUS, { transferId: "sim_tx_000000000000000000000000" }, {}],
    ];
    for (const [path, body, headers] of calls) {
      const res = await key("POST", path, body, headers);
      expect(res.status, `${path} ${res.text}`).toBe(424);
      expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
    }
    const where = { organizationId: org };
    expect(await server.db.prisma.custodyWallet.count({ where })).toBe(0);
    expect(await server.db.prisma.custodyTransfer.count({ where })).toBe(0);
    expect(await server.db.prisma.approvalRequest.count({ where })).toBe(0);
    expect(await server.db.prisma.complianceDecision.count({ where })).toBe(0);
    expect(await server.db.prisma.activityEvent.count({ where })).toBe(0);
    expect(await server.db.prisma.simCustodyTransfer.count()).toBe(simBefore);
  });
});

describe("with the custody simulator connected (POST /api/admin/connections)", () => {
  beforeAll(async () => {
    const res = await fetch(`${server.url}/api/admin/connections`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ organizationId: ORG, environment: "sandbox", category: "custody", providerSlug: "simulator", reviewed: true }),
    });
    expect(res.status).toBe(201);
  });

  it("full flow: wallet → approval by a second actor → transfer → approval → submit → completed", async () => {
    const requested = await requestWallet({
      policy: { allowedAssets: ["USDC"], limits: [{ asset: "USDC", perTransferMinor: "50000000000" }] },
    });
    expect(requested).toMatchObject({
      status: "pending_approval",
      version: 1,
      address: null,
      providerWalletId: null,
      simulated: true,
      provider: "simulator",
    });
    // The requester cannot approve their own request; a still-pending approval cannot activate.
    expect((await alice("POST", APPROVE(requested.approvalRequestId), {})).status).toBe(403);
    const early = await alice(
      "POST",
      WALLETS,
      { custodyWalletId: requested.custodyWalletId, approvalRequestId: requested.approvalRequestId },
      idem(),
    );
    expect(early.status).toBe(403);
    expect(early.json.code).toBe("FORBIDDEN");
    expect((await bob("POST", APPROVE(requested.approvalRequestId), {})).json.status).toBe("approved");
    const wallet = await alice(
      "POST",
      WALLETS,
      { custodyWalletId: requested.custodyWalletId, approvalRequestId: requested.approvalRequestId },
      idem(),
    );
    expect(wallet.status, wallet.text).toBe(200);
    expect(wallet.json).toMatchObject({ status: "active", version: 2 });
    expect(wallet.json.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(wallet.json.providerWalletId).toMatch(/^sim_vault_/);
    const approval = await server.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: requested.approvalRequestId } });
    expect(approval.consumedAt).not.toBeNull();

    const transfer = await requestTransfer(wallet.json.custodyWalletId, { amount: "2500", note: "Payout batch", jurisdiction: ["DE"] });
    // `amount` comes back as given (any JSON, never read); amountMinor is what moves.
    expect(transfer).toMatchObject({ status: "pending_approval", version: 1, transferId: null, amount: "2500", chain: "base" });
    const pending = await alice(
      "POST",
      TRANSFERS,
      { custodyTransferId: transfer.custodyTransferId, approvalRequestId: transfer.approvalRequestId },
      idem(),
    );
    expect(pending.status).toBe(403);
    expect((await row(transfer.custodyTransferId)).version).toBe(1);
    expect((await bob("POST", APPROVE(transfer.approvalRequestId), {})).status).toBe(200);
    const submitted = await alice(
      "POST",
      TRANSFERS,
      { custodyTransferId: transfer.custodyTransferId, approvalRequestId: transfer.approvalRequestId },
      idem(),
    );
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.json).toMatchObject({ status: "submitted", version: 3 });
    expect(submitted.json.transferId).toMatch(/^sim_tx_/);

    const completed = await reader("POST", STATUS, { custodyTransferId: transfer.custodyTransferId });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.json).toMatchObject({ status: "completed", version: 4 });
    expect(completed.json.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const byProviderId = await reader("POST", STATUS, { transferId: submitted.json.transferId, jurisdiction: ["DE"] });
    expect(byProviderId.json).toEqual(completed.json);

    const balance = await alice("POST", BALANCE, { walletId: wallet.json.custodyWalletId });
    expect(balance.status, balance.text).toBe(200);
    expect(balance.json.balances).toEqual([
      { asset: "USDC", amountMinor: String(USDC_START - 2_500_000_000n), decimals: 6, amount: "997500.000000" },
      { asset: "ETH", amountMinor: "10000000000000000000", decimals: 18, amount: "10.000000000000000000" },
    ]);
    const event = await server.db.prisma.activityEvent.findFirstOrThrow({ where: { resourceId: transfer.custodyTransferId } });
    expect(event.type).toBe("custody_transfer.created");
    expect(event.amountUsd?.toFixed(2)).toBe("2500.00");
  });

  describe("custody/wallets", () => {
    it.each([
      ["no Idempotency-Key", () => alice("POST", WALLETS, { label: "x", chain: "base", type: "mpc" }), 400, "IDEMPOTENCY_KEY_REQUIRED"],
      [
        "a body matching neither shape",
        () => alice("POST", WALLETS, { label: "x", custodyWalletId: "cw_000000000000000000000000" }, idem()),
        400,
        "VALIDATION_ERROR",
      ],
      [
        "a policy asset the chain does not carry",
        () => alice("POST", WALLETS, { label: "x", chain: "polygon", type: "mpc", policy: { allowedAssets: ["ETH"] } }, idem()),
        400,
        "VALIDATION_ERROR",
      ],
      [
        "an allowlisted EVM address on solana",
        () => alice("POST", WALLETS, { label: "x", chain: "solana", type: "mpc", policy: { destinationAllowlist: [CLEAN] } }, idem()),
        400,
        "VALIDATION_ERROR",
      ],
      [
        "a sanctioned jurisdiction",
        () => alice("POST", WALLETS, { label: "x", chain: "base", type: "mpc", operatorJurisdiction: "KP" }, idem()),
        403,
        "COMPLIANCE_BLOCKED",
      ],
      [
        "an unknown wallet",
        () =>
          alice(
            "POST",
            WALLETS,
            { custodyWalletId: "cw_000000000000000000000000", approvalRequestId: "apr_000000000000000000000000" },
            idem(),
          ),
        404,
        "NOT_FOUND",
      ],
      ["a read-only key", () => reader("POST", WALLETS, { label: "x", chain: "base", type: "mpc" }, idem()), 403, "FORBIDDEN"],
    ])("%s → %i %s", async (_name, send, status, code) => {
      const before = await server.db.prisma.custodyWallet.count();
      const res = await send();
      expect(res.status, res.text).toBe(status);
      expect(res.json.code).toBe(code);
      expect(await server.db.prisma.custodyWallet.count()).toBe(before);
    });

    it("409 CUSTODY_STATE_CONFLICT for an already active wallet and for another wallet's approval; 404 for an unknown approval", async () => {
      const active = await activeWallet();
      const again = await alice(
        "POST",
        WALLETS,
        { custodyWalletId: active.custodyWalletId, approvalRequestId: active.approvalRequestId },
        idem(),
      );
      expect(again.status).toBe(409);
      expect(again.json.code).toBe("CUSTODY_STATE_CONFLICT");
      const pending = await requestWallet();
      const crossed = await alice(
        "POST",
        WALLETS,
        { custodyWalletId: pending.custodyWalletId, approvalRequestId: active.approvalRequestId },
        idem(),
      );
      expect(crossed.status).toBe(409);
      const unknown = await alice(
        "POST",
        WALLETS,
        { custodyWalletId: pending.custodyWalletId, approvalRequestId: "apr_000000000000000000000000" },
        idem(),
      );
      expect(unknown.status).toBe(404);
    });

    it("a rejected approval makes the wallet rejected (no provider call)", async () => {
      const requested = await requestWallet();
      await bob("POST", REJECT(requested.approvalRequestId), { reason: "not needed" });
      const res = await alice(
        "POST",
        WALLETS,
        { custodyWalletId: requested.custodyWalletId, approvalRequestId: requested.approvalRequestId },
        idem(),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ status: "rejected", version: 2, address: null });
    });

    it("502 when the provider fails (label TIMEOUT…): the wallet stays pending_approval and the approval unused", async () => {
      const requested = await requestWallet({ label: "TIMEOUT vault" });
      await bob("POST", APPROVE(requested.approvalRequestId), {});
      const res = await alice(
        "POST",
        WALLETS,
        { custodyWalletId: requested.custodyWalletId, approvalRequestId: requested.approvalRequestId },
        idem(),
      );
      expect(res.status, res.text).toBe(502);
      expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
      const wallet = await server.db.prisma.custodyWallet.findUniqueOrThrow({ where: { id: requested.custodyWalletId } });
      expect(wallet).toMatchObject({ status: "pending_approval", version: 1 });
      expect(
        (await server.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: requested.approvalRequestId } })).consumedAt,
      ).toBeNull();
    });

    it("503 SOURCE_NOT_AVAILABLE when the provider cannot be reached; nothing changes and a retry activates", async () => {
      const requested = await requestWallet();
      await bob("POST", APPROVE(requested.approvalRequestId), {});
      const body = { custodyWalletId: requested.custodyWalletId, approvalRequestId: requested.approvalRequestId };
      const headers = idem();
      const res = await renamed("SimCustodyWallet", () => alice("POST", WALLETS, body, headers));
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("SOURCE_NOT_AVAILABLE");
      expect(res.headers.get("retry-after")).not.toBeNull();
      expect((await server.db.prisma.custodyWallet.findUniqueOrThrow({ where: { id: requested.custodyWalletId } })).status).toBe(
        "pending_approval",
      );
      const retried = await alice("POST", WALLETS, body, headers);
      expect(retried.status, retried.text).toBe(200);
      expect(retried.json.status).toBe("active");
    });
  });

  describe("custody/wallets/balance", () => {
    it("reports per-asset balances from the provider; one entry (zero when not held) with asset; none before activation", async () => {
      const wallet = await activeWallet({ chain: "solana" });
      const all = await alice("POST", BALANCE, { walletId: wallet.custodyWalletId, organizationId: ORG });
      expect(all.json).toMatchObject({ walletId: wallet.custodyWalletId, chain: "solana", provider: "simulator", simulated: true });
      expect(all.json.balances.map((b: { asset: string }) => b.asset)).toEqual(["USDC", "SOL"]);
      expect(all.json.balances[1]).toEqual({ asset: "SOL", amountMinor: "10000000000", decimals: 9, amount: "10.000000000" });
      const eurc = await alice("POST", BALANCE, { walletId: wallet.custodyWalletId, asset: "EURC" }, idem());
      expect(eurc.json.balances).toEqual([{ asset: "EURC", amountMinor: "0", decimals: 6, amount: "0.000000" }]);
      const pending = await requestWallet();
      expect((await alice("POST", BALANCE, { walletId: pending.custodyWalletId })).json.balances).toEqual([]);
    });

    it.each([
      ["an asset the chain does not carry", { asset: "POL" }, 400, "VALIDATION_ERROR"],
      ["a malformed wallet id", { walletId: "wallet-1" }, 400, "VALIDATION_ERROR"],
      ["an unknown wallet", { walletId: "cw_000000000000000000000000" }, 404, "NOT_FOUND"],
    ])("%s → %i %s", async (_name, body, status, code) => {
      const wallet = await activeWallet();
      const res = await alice("POST", BALANCE, { walletId: wallet.custodyWalletId, ...body });
      expect(res.status, res.text).toBe(status);
      expect(res.json.code).toBe(code);
    });

    it("502 PROVIDER_EXECUTION_FAILED when the provider cannot report the balances", async () => {
      const wallet = await activeWallet();
      const res = await renamed("SimCustodyWallet", () => alice("POST", BALANCE, { walletId: wallet.custodyWalletId }));
      expect(res.status, res.text).toBe(502);
      expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
    });
  });

  describe("custody/transfers shape 1 (request)", () => {
    let walletId: string;
    let policyWalletId: string;
    beforeAll(async () => {
      walletId = (await activeWallet()).custodyWalletId;
      policyWalletId = (
        await activeWallet({
          policy: {
            allowedAssets: ["USDC"],
            destinationAllowlist: [CLEAN],
            limits: [{ asset: "USDC", perTransferMinor: "5000000", dailyMinor: "8000000" }],
          },
        })
      ).custodyWalletId;
    });

    it.each([
      ["an asset the chain does not carry", { asset: "SOL" }, 400, "VALIDATION_ERROR"],
      ["a solana address on base", { destination: "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV" }, 400, "VALIDATION_ERROR"],
      ["amountMinor zero", { amountMinor: "0" }, 400, "VALIDATION_ERROR"],
      ["a sanctioned destination", { destination: SANCTIONED }, 403, "COMPLIANCE_BLOCKED"],
      ["a sanctioned jurisdiction", { receiverJurisdiction: "SY" }, 403, "COMPLIANCE_BLOCKED"],
      ["an unknown wallet", { walletId: "cw_000000000000000000000000" }, 404, "NOT_FOUND"],
    ])("%s → %i %s; nothing is created", async (_name, body, status, code) => {
      const before = await server.db.prisma.custodyTransfer.count();
      const res = await alice(
        "POST",
        TRANSFERS,
        { walletId, destination: CLEAN, asset: "USDC", amountMinor: "2500000000", ...body },
        idem(),
      );
      expect(res.status, res.text).toBe(status);
      expect(res.json.code).toBe(code);
      expect(await server.db.prisma.custodyTransfer.count()).toBe(before);
    });

    it("409 CUSTODY_STATE_CONFLICT from a wallet that is not active", async () => {
      const pending = await requestWallet();
      const res = await alice(
        "POST",
        TRANSFERS,
        { walletId: pending.custodyWalletId, destination: CLEAN, asset: "USDC", amountMinor: "1" },
        idem(),
      );
      expect(res.status).toBe(409);
      expect(res.json.code).toBe("CUSTODY_STATE_CONFLICT");
    });

    it.each([
      ["an asset the policy does not allow", { asset: "ETH", amountMinor: "1" }, "policy.allowed_assets"],
      [
        "a destination off the allowlist",
        { destination: "0x8ba1f109551bd432803012645ac136ddd64dba72", amountMinor: "1" },
        "policy.destination_allowlist",
      ],
      ["more than the per-transfer limit", { amountMinor: "5000001" }, "policy.per_transfer_limit"],
    ])("403 COMPLIANCE_BLOCKED by the wallet policy: %s", async (_name, body, rule) => {
      const res = await alice("POST", TRANSFERS, { walletId: policyWalletId, destination: CLEAN, asset: "USDC", ...body }, idem());
      expect(res.status, res.text).toBe(403);
      expect(res.json.reasons.map((r: { rule: string }) => r.rule)).toEqual([rule]);
    });

    it("the daily limit counts the day's transfers", async () => {
      await requestTransfer(policyWalletId, { amountMinor: "5000000" });
      const over = await alice(
        "POST",
        TRANSFERS,
        { walletId: policyWalletId, destination: CLEAN, asset: "USDC", amountMinor: "3000001" },
        idem(),
      );
      expect(over.status).toBe(403);
      expect(over.json.reasons[0].rule).toBe("policy.daily_limit");
      await requestTransfer(policyWalletId, { amountMinor: "3000000" });
    });
  });

  describe("custody/transfers shapes 2 and 3", () => {
    let walletId: string;
    beforeAll(async () => {
      walletId = (await activeWallet()).custodyWalletId;
    });

    it("20 concurrent shape-3 calls at one expectedVersion: exactly one succeeds, the rest 409; the version rises by one", async () => {
      const transfer = await submittedTransfer(walletId);
      const results = await Promise.all(Array.from({ length: 20 }, () => advance(transfer.custodyTransferId, 3)));
      const ok = results.filter((r) => r.status === 200);
      const conflicts = results.filter((r) => r.status === 409);
      expect(ok.length, results.map((r) => r.status).join(",")).toBe(1);
      expect(conflicts.length).toBe(19);
      for (const c of conflicts) expect(c.json.code).toBe("CUSTODY_STATE_CONFLICT");
      expect(ok[0]?.json).toMatchObject({ status: "completed", version: 4 });
      expect(await row(transfer.custodyTransferId)).toMatchObject({ status: "completed", version: 4 });
    });

    it("shape 3: a stale version and a terminal transfer answer 409 and change nothing", async () => {
      const transfer = await submittedTransfer(walletId);
      expect((await advance(transfer.custodyTransferId, 2)).json.code).toBe("CUSTODY_STATE_CONFLICT");
      expect((await advance(transfer.custodyTransferId, 3)).json.status).toBe("completed");
      const terminal = await advance(transfer.custodyTransferId, 4);
      expect(terminal.status).toBe(409);
      expect((await row(transfer.custodyTransferId)).version).toBe(4);
    });

    it("shape 3 from pending_approval: 409 while the approval is pending, settles rejected / cancelled from the approval", async () => {
      const waiting = await requestTransfer(walletId);
      expect((await advance(waiting.custodyTransferId, 1)).status).toBe(409);
      await bob("POST", REJECT(waiting.approvalRequestId), {});
      expect((await advance(waiting.custodyTransferId, 1)).json).toMatchObject({ status: "rejected", version: 2 });
      const expiring = await requestTransfer(walletId);
      await server.db.prisma.approvalRequest.update({
        where: { id: expiring.approvalRequestId },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      expect((await advance(expiring.custodyTransferId, 1)).json).toMatchObject({ status: "cancelled", version: 2 });
    });

    it("shape 2 with a rejected approval makes the transfer rejected; shape 2 again answers 409", async () => {
      const transfer = await requestTransfer(walletId);
      await bob("POST", REJECT(transfer.approvalRequestId), {});
      const body = { custodyTransferId: transfer.custodyTransferId, approvalRequestId: transfer.approvalRequestId };
      const res = await alice("POST", TRANSFERS, body, idem());
      expect(res.json).toMatchObject({ status: "rejected", version: 2, transferId: null });
      expect((await alice("POST", TRANSFERS, body, idem())).json.code).toBe("CUSTODY_STATE_CONFLICT");
    });

    it("shape 2 errors: another transfer's approval → 409, unknown transfer or approval → 404, no key → 400", async () => {
      const a = await requestTransfer(walletId);
      const b = await requestTransfer(walletId);
      const crossed = await alice(
        "POST",
        TRANSFERS,
        { custodyTransferId: a.custodyTransferId, approvalRequestId: b.approvalRequestId },
        idem(),
      );
      expect(crossed.status).toBe(409);
      expect(
        (
          await alice(
            "POST",
            TRANSFERS,
            { custodyTransferId: "ct_000000000000000000000000", approvalRequestId: a.approvalRequestId },
            idem(),
          )
        ).status,
      ).toBe(404);
      expect(
        (
          await alice(
            "POST",
            TRANSFERS,
            { custodyTransferId: a.custodyTransferId, approvalRequestId: "apr_000000000000000000000000" },
            idem(),
          )
        ).status,
      ).toBe(404);
      const noKey = await alice("POST", TRANSFERS, { custodyTransferId: a.custodyTransferId, expectedVersion: 1 });
      expect(noKey.json.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
    });

    it("502 on submission (note TIMEOUT…): the transfer stays approved, the approval is used; shape 3 retries at version 2", async () => {
      const transfer = await requestTransfer(walletId, { note: "TIMEOUT batch" });
      await bob("POST", APPROVE(transfer.approvalRequestId), {});
      const res = await alice(
        "POST",
        TRANSFERS,
        { custodyTransferId: transfer.custodyTransferId, approvalRequestId: transfer.approvalRequestId },
        idem(),
      );
      expect(res.status, res.text).toBe(502);
      expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
      expect(await row(transfer.custodyTransferId)).toMatchObject({ status: "approved", version: 2, providerTransferId: null });
      expect(
        (await server.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: transfer.approvalRequestId } })).consumedAt,
      ).not.toBeNull();
      const retried = await advance(transfer.custodyTransferId, 2);
      expect(retried.status).toBe(502);
      expect((await row(transfer.custodyTransferId)).version).toBe(2);
    });

    it("shape 2 resumes an approved transfer whose submission failed: 503 while unreachable, then submitted", async () => {
      const transfer = await requestTransfer(walletId);
      await bob("POST", APPROVE(transfer.approvalRequestId), {});
      const body = { custodyTransferId: transfer.custodyTransferId, approvalRequestId: transfer.approvalRequestId };
      const res = await renamed("SimCustodyTransfer", () => alice("POST", TRANSFERS, body, idem()));
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("SOURCE_NOT_AVAILABLE");
      expect(await row(transfer.custodyTransferId)).toMatchObject({ status: "approved", version: 2 });
      const resumed = await alice("POST", TRANSFERS, body, idem());
      expect(resumed.json).toMatchObject({ status: "submitted", version: 3 });
    });

    it("shape 3 reconcile: 503 SOURCE_NOT_AVAILABLE while the provider is unreachable, nothing changes", async () => {
      const transfer = await submittedTransfer(walletId);
      const res = await renamed("SimCustodyTransfer", () => advance(transfer.custodyTransferId, 3));
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("SOURCE_NOT_AVAILABLE");
      expect((await row(transfer.custodyTransferId)).version).toBe(3);
      expect((await advance(transfer.custodyTransferId, 3)).json.status).toBe("completed");
    });

    it.each([
      ["the dead destination", { destination: DEAD }, { status: "failed", failureReason: { code: "provider_failed" }, txHash: null }],
    ])("reconcile records failed for %s", async (_name, body, expected) => {
      const transfer = await submittedTransfer(walletId, body);
      const res = await advance(transfer.custodyTransferId, 3);
      expect(res.json).toMatchObject({ ...expected, version: 4 });
    });

    it("balances never go negative: failed transfers are not subtracted", async () => {
      const wallet = (await activeWallet()).custodyWalletId;
      const big = await submittedTransfer(wallet, { amountMinor: String(USDC_START - 1_000_000n) });
      const tooMuch = await submittedTransfer(wallet, { amountMinor: "2000000" });
      expect((await advance(big.custodyTransferId, 3)).json.status).toBe("completed");
      expect((await advance(tooMuch.custodyTransferId, 3)).json.failureReason.code).toBe("insufficient_funds");
      const balance = await alice("POST", BALANCE, { walletId: wallet, asset: "USDC" });
      expect(balance.json.balances[0].amountMinor).toBe("1000000");
    });

    it("a cold wallet's transfer stays submitted at the first reconcile (same version), completes at the second", async () => {
      const cold = (await activeWallet({ type: "cold" })).custodyWalletId;
      const transfer = await submittedTransfer(cold);
      const first = await advance(transfer.custodyTransferId, 3);
      expect(first.json).toMatchObject({ status: "submitted", version: 3 });
      expect((await advance(transfer.custodyTransferId, 3)).json).toMatchObject({ status: "completed", version: 4 });
    });
  });

  describe("custody/transfers/status", () => {
    let walletId: string;
    beforeAll(async () => {
      walletId = (await activeWallet()).custodyWalletId;
    });

    it("returns a pending transfer as stored, without touching the provider", async () => {
      const transfer = await requestTransfer(walletId);
      const res = await reader("POST", STATUS, { custodyTransferId: transfer.custodyTransferId, organizationId: ORG });
      expect(res.status).toBe(200);
      expect(res.json).toEqual(transfer);
    });

    it.each([
      ["an unknown custodyTransferId", { custodyTransferId: "ct_000000000000000000000000" }, 404, "NOT_FOUND"],
      ["an unknown provider transferId", { transferId: "sim_tx_unknown" }, 404, "NOT_FOUND"],
      ["both shapes at once", { custodyTransferId: "ct_000000000000000000000000", transferId: "x" }, 400, "VALIDATION_ERROR"],
      ["a malformed custodyTransferId", { custodyTransferId: "transfer-1" }, 400, "VALIDATION_ERROR"],
      ["another organization", { custodyTransferId: "ct_000000000000000000000000", organizationId: "org_other" }, 403, "FORBIDDEN"],
    ])("%s → %i %s", async (_name, body, status, code) => {
      const res = await reader("POST", STATUS, body);
      expect(res.status, res.text).toBe(status);
      expect(res.json.code).toBe(code);
    });

    it("409 CUSTODY_STATE_CONFLICT when the provider's record does not match the transfer; nothing recorded", async () => {
      const transfer = await submittedTransfer(walletId);
      await server.db.prisma.simCustodyTransfer.update({ where: { id: transfer.transferId }, data: { amountMinor: "1" } });
      const res = await reader("POST", STATUS, { transferId: transfer.transferId });
      expect(res.status, res.text).toBe(409);
      expect(res.json.code).toBe("CUSTODY_STATE_CONFLICT");
      expect(await row(transfer.custodyTransferId)).toMatchObject({ status: "submitted", version: 3 });
    });

    it("502 when the provider answers the read with an error (note UNREACHABLE…); 503 when it cannot be reached", async () => {
      const failing = await submittedTransfer(walletId, { note: "UNREACHABLE ledger" });
      const res = await reader("POST", STATUS, { custodyTransferId: failing.custodyTransferId });
      expect(res.status, res.text).toBe(502);
      expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
      const transfer = await submittedTransfer(walletId);
      const down = await renamed("SimCustodyTransfer", () => reader("POST", STATUS, { custodyTransferId: transfer.custodyTransferId }));
      expect(down.status, down.text).toBe(503);
      expect(down.json.code).toBe("SOURCE_NOT_AVAILABLE");
      expect((await row(transfer.custodyTransferId)).version).toBe(3);
    });
  });
});
