// Events of custody wallets and transfers (issue 16): one per state entered, data = the resource as its write or
// status read answered it at that moment (custody/transfers/status for transfers); a lost or refused move emits nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventTypesOf, expectOneEvent } from "../helpers/events.ts";
import { deciderWithKey } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, expireApproval, idem } from "../helpers/v2.ts";

const ORG = "org_evt_cust";
const WALLETS = "/api/v2/agent/custody/wallets";
const TRANSFERS = "/api/v2/agent/custody/transfers";
const STATUS = "/api/v2/agent/custody/transfers/status";
const APPROVE = (id: string) => `/api/v2/agent/approvals/${id}/approve`;
const REJECT = (id: string) => `/api/v2/agent/approvals/${id}/reject`;
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";
const DEAD = "0x000000000000000000000000000000000000dEaD";

type Call = ReturnType<typeof api>;
let server: TestServer;
let alice: Call;
let bob: Call;

beforeAll(async () => {
  server = await startTestServer();
  alice = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "alice" })).key);
  bob = await deciderWithKey(server, ORG, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key);
  await connect(server, { organizationId: ORG, category: "custody" });
});
afterAll(() => server?.close());

// biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary response bodies
async function ok(res: Promise<{ status: number; json: any; text: string }>, status = 200) {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status);
  return answer.json;
}
const requestWallet = () => ok(alice("POST", WALLETS, { label: "Ops", chain: "base", type: "mpc" }, idem()), 201);
const activate = (w: { custodyWalletId: string; approvalRequestId: string }) =>
  alice("POST", WALLETS, { custodyWalletId: w.custodyWalletId, approvalRequestId: w.approvalRequestId }, idem());
const requestTransfer = (walletId: string, body: Record<string, unknown> = {}) =>
  ok(alice("POST", TRANSFERS, { walletId, destination: CLEAN, asset: "USDC", amountMinor: "2500000", ...body }, idem()), 201);
const submit = (t: { custodyTransferId: string; approvalRequestId: string }) =>
  alice("POST", TRANSFERS, { custodyTransferId: t.custodyTransferId, approvalRequestId: t.approvalRequestId }, idem());
const status = (custodyTransferId: string) => ok(alice("POST", STATUS, { custodyTransferId }));

async function activeWallet() {
  const requested = await requestWallet();
  await ok(bob("POST", APPROVE(requested.approvalRequestId), {}));
  return ok(activate(requested));
}

describe("custody wallet events", () => {
  it("created (pending_approval) → activated, each once with the wallet as answered", async () => {
    const requested = await requestWallet();
    await expectOneEvent(server, "custody_wallet.created", requested.custodyWalletId, requested, { simulated: true });
    // A refused activation (approval still pending: 403) emits nothing.
    expect((await activate(requested)).status).toBe(403);
    await ok(bob("POST", APPROVE(requested.approvalRequestId), {}));
    const active = await ok(activate(requested));
    expect(active.status).toBe("active");
    await expectOneEvent(server, "custody_wallet.activated", requested.custodyWalletId, active, { simulated: true });
    // Activating again: 409, nothing emitted.
    expect((await activate(requested)).status).toBe(409);
    expect(await eventTypesOf(server, requested.custodyWalletId)).toEqual(["custody_wallet.created", "custody_wallet.activated"]);
  });

  it("a rejected approval makes the wallet rejected: custody_wallet.rejected once", async () => {
    const requested = await requestWallet();
    await ok(bob("POST", REJECT(requested.approvalRequestId), { reason: "no" }));
    const rejected = await ok(activate(requested));
    expect(rejected.status).toBe("rejected");
    await expectOneEvent(server, "custody_wallet.rejected", requested.custodyWalletId, rejected);
  });
});

describe("custody transfer events", () => {
  let walletId: string;
  beforeAll(async () => {
    walletId = (await activeWallet()).custodyWalletId;
  });

  it("created → approved → submitted → completed, each once; data = the transfer as answered at that moment", async () => {
    const requested = await requestTransfer(walletId);
    await expectOneEvent(server, "custody_transfer.created", requested.custodyTransferId, requested, { simulated: true });
    await ok(bob("POST", APPROVE(requested.approvalRequestId), {}));
    const submitted = await ok(submit(requested));
    expect(submitted).toMatchObject({ status: "submitted", version: 3 });
    // approved is the first transaction's state (committed before the provider call): version 2, not yet a provider id.
    const [approved] = await (async () => {
      const rows = await server.db.kysely
        .selectFrom("Event")
        .select("data")
        .where("resourceId", "=", requested.custodyTransferId)
        .where("type", "=", "custody_transfer.approved")
        .execute();
      return rows.map((r) => r.data as Record<string, unknown>);
    })();
    expect(approved).toMatchObject({ status: "approved", version: 2, transferId: null });
    expect({ ...approved, status: "submitted", version: 3, transferId: submitted.transferId, updatedAt: submitted.updatedAt }).toEqual(
      submitted,
    );
    await expectOneEvent(server, "custody_transfer.submitted", requested.custodyTransferId, submitted);
    const completed = await status(requested.custodyTransferId);
    expect(completed.status).toBe("completed");
    await expectOneEvent(server, "custody_transfer.completed", requested.custodyTransferId, completed);
    expect(await status(requested.custodyTransferId)).toEqual(completed);
    expect(await eventTypesOf(server, requested.custodyTransferId)).toEqual([
      "custody_transfer.created",
      "custody_transfer.approved",
      "custody_transfer.submitted",
      "custody_transfer.completed",
    ]);
  });

  it("the provider fails it (dead destination) → custody_transfer.failed once", async () => {
    const requested = await requestTransfer(walletId, { destination: DEAD });
    await ok(bob("POST", APPROVE(requested.approvalRequestId), {}));
    await ok(submit(requested));
    const failed = await status(requested.custodyTransferId);
    expect(failed.status).toBe("failed");
    await expectOneEvent(server, "custody_transfer.failed", requested.custodyTransferId, failed);
  });

  it("a rejected approval → custody_transfer.rejected; an expired one → custody_transfer.cancelled", async () => {
    const rejectedOne = await requestTransfer(walletId);
    await ok(bob("POST", REJECT(rejectedOne.approvalRequestId), {}));
    const rejected = await ok(submit(rejectedOne));
    expect(rejected.status).toBe("rejected");
    await expectOneEvent(server, "custody_transfer.rejected", rejectedOne.custodyTransferId, rejected);
    expect(await status(rejectedOne.custodyTransferId)).toEqual(rejected);

    const expiring = await requestTransfer(walletId);
    await expireApproval(server, expiring.approvalRequestId);
    const cancelled = await ok(alice("POST", TRANSFERS, { custodyTransferId: expiring.custodyTransferId, expectedVersion: 1 }, idem()));
    expect(cancelled.status).toBe("cancelled");
    await expectOneEvent(server, "custody_transfer.cancelled", expiring.custodyTransferId, cancelled);
  });

  it("concurrent status reads of a submitted transfer: one custody_transfer.completed", async () => {
    const requested = await requestTransfer(walletId);
    await ok(bob("POST", APPROVE(requested.approvalRequestId), {}));
    await ok(submit(requested));
    const reads = await Promise.all(
      Array.from({ length: 10 }, () => alice("POST", STATUS, { custodyTransferId: requested.custodyTransferId })),
    );
    expect(reads.every((r) => r.status === 200)).toBe(true);
    const final = await status(requested.custodyTransferId);
    await expectOneEvent(server, "custody_transfer.completed", requested.custodyTransferId, final);
  });
});
