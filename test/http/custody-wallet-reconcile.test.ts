// Issue 26 for custody wallet activation (shape 2 of createCustodyWallet): an unknown outcome is a state (202
// `processing`), the simulated custodian opens a vault once per wallet id and can be asked about it, and the reconciler
// (driven directly, at a chosen time) settles the wallet in one unit of work — `active` or `failed`, exactly one event
// per state, the activity the metrics read once, and the key's answer, which the key then replays. A wallet has no
// amount: the magic values 777.77, 778.88 and 779.99 rehearse it as the start of its label.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { custodyWalletActivateHandler } from "../../server/domain/custody/reconcile-custody-wallet.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { eventsOf } from "../helpers/events.ts";
import { deciderWithKey } from "../helpers/members.ts";
import { intentsOnResource, reconcilePastDeadlines, reconcileUntilGiveUp, strandKey } from "../helpers/reconcile.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";

const ORG = "org_cw_reconcile";
const WALLETS = "/api/v2/agent/custody/wallets";
const TRANSFERS = "/api/v2/agent/custody/transfers";
const APPROVE = (id: string) => `/api/v2/agent/approvals/${id}/approve`;
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";
/** RECONCILE_AFTER_SECONDS of the test server: intents are due a second after they were written. */
const AFTER = 1;

type Call = ReturnType<typeof api>;
let server: TestServer;
let alice: Call;
let bob: Call;

const reconcile = () => reconcilePastDeadlines(server.db.kysely, AFTER);
const intentsOf = (id: string) => intentsOnResource(server.db.kysely, id);
const vaults = (id: string) => server.db.kysely.selectFrom("SimCustodyWallet").selectAll().where("idempotencyKey", "=", id).execute();
const stored = (id: string) => server.db.kysely.selectFrom("CustodyWallet").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const eventTypes = async (id: string) => (await eventsOf(server, id)).map((e) => e.type).sort();
const activations = async (id: string) =>
  (
    await server.db.kysely
      .selectFrom("ActivityEvent")
      .select("id")
      .where("resourceId", "=", id)
      .where("type", "=", "custody_wallet.created")
      .execute()
  ).length;
const approvalUsed = async (approvalRequestId: string) =>
  (await server.db.kysely.selectFrom("ApprovalRequest").select("consumedAt").where("id", "=", approvalRequestId).executeTakeFirstOrThrow())
    .consumedAt !== null;

beforeAll(async () => {
  server = await startTestServer({ env: { RECONCILE_AFTER_SECONDS: String(AFTER) } });
  alice = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "alice" })).key);
  bob = await deciderWithKey(server, ORG, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key);
  await connect(server, { organizationId: ORG, category: "custody" });
});
afterAll(() => server?.close());

/** A wallet labelled `label` requested and approved; `activate` sends shape 2 under `key`. */
async function approvedWallet(label: string) {
  const requested = await alice("POST", WALLETS, { label, chain: "base", type: "mpc" }, idem());
  expect(requested.status, requested.text).toBe(201);
  const { custodyWalletId: id, approvalRequestId } = requested.json;
  expect((await bob("POST", APPROVE(approvalRequestId), {})).status).toBe(200);
  const key = idem();
  const activate = () => alice("POST", WALLETS, { custodyWalletId: id, approvalRequestId }, key);
  return { id: id as string, approvalRequestId: approvalRequestId as string, key, activate };
}

describe("a lost answer from the custodian (unknown outcome)", () => {
  it("777.77: 202 processing, then the reconciler finds the vault: active with its address, activated once, the key replays 200", async () => {
    const { id, approvalRequestId, activate } = await approvedWallet("777.77 rehearsal");
    const first = await activate();
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({
      custodyWalletId: id,
      status: "processing",
      address: null,
      providerWalletId: null,
      failureReason: null,
      version: 2,
    });
    // The key's answer until the reconciler settles it is the 202; the approval is used up; the wallet takes no other
    // activation meanwhile.
    const replay = await activate();
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.json]).toEqual([202, "true", first.json]);
    expect(await approvalUsed(approvalRequestId)).toBe(true);
    const other = await alice("POST", WALLETS, { custodyWalletId: id, approvalRequestId }, idem());
    expect([other.status, other.json.code]).toEqual([409, "CUSTODY_STATE_CONFLICT"]);
    expect(await eventTypes(id)).toEqual(["custody_wallet.created", "custody_wallet.processing"]);
    expect(await vaults(id)).toHaveLength(1);
    expect(await intentsOf(id)).toHaveLength(1);
    expect(await activations(id)).toBe(0);

    expect(await reconcile()).toMatchObject({ settled: 1, gaveUp: 0, errors: [] });
    const [vault] = await vaults(id);
    const row = await stored(id);
    expect([row.status, row.providerWalletId, row.address, row.version]).toEqual(["active", vault?.id, vault?.address, 3]);
    expect(await intentsOf(id)).toHaveLength(0);
    expect(await eventTypes(id)).toEqual(["custody_wallet.activated", "custody_wallet.created", "custody_wallet.processing"]);
    expect(await activations(id)).toBe(1);
    const settled = await activate();
    expect([settled.status, settled.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(settled.json).toMatchObject({ custodyWalletId: id, status: "active", providerWalletId: vault?.id, version: 3 });
    // Settled once: a second run finds nothing, and the custodian opened one vault.
    expect((await reconcile()).claimed).toBe(0);
    expect(await vaults(id)).toHaveLength(1);
    // An active wallet like any other: it sends transfers.
    const transfer = await alice("POST", TRANSFERS, { walletId: id, destination: CLEAN, asset: "USDC", amountMinor: "1000000" }, idem());
    expect(transfer.status, transfer.text).toBe(201);
  });

  it("778.88: 202, the custodian never created it: failed `not_executed`, its event once, never counted, the key replays it", async () => {
    const { id, activate } = await approvedWallet("778.88 rehearsal");
    const first = await activate();
    expect([first.status, first.json.status]).toEqual([202, "processing"]);
    expect(await vaults(id)).toHaveLength(0);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await activate();
    expect([settled.status, settled.json.status, settled.json.address]).toEqual([200, "failed", null]);
    expect(settled.json.failureReason).toMatchObject({ code: "not_executed" });
    expect(await eventTypes(id)).toEqual(["custody_wallet.created", "custody_wallet.failed", "custody_wallet.processing"]);
    expect(await vaults(id)).toHaveLength(0);
    expect(await activations(id)).toBe(0);
    expect((await reconcile()).claimed).toBe(0);
  });

  it("779.99: the custodian answers after 3 s, within the provider timeout: 200 active, nothing left to reconcile", async () => {
    const { id, activate } = await approvedWallet("779.99 rehearsal");
    const started = Date.now();
    const res = await activate();
    expect(res.status, res.text).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect([res.json.status, res.json.version]).toEqual(["active", 2]);
    expect(res.json.providerWalletId).toMatch(/^sim_vault_/);
    expect(await intentsOf(id)).toHaveLength(0);
    expect(await eventTypes(id)).toEqual(["custody_wallet.activated", "custody_wallet.created"]);
  });

  it("a refusal stays as before: 502, the wallet `pending_approval`, the approval unused again, its intent closed", async () => {
    const { id, approvalRequestId, activate } = await approvedWallet("TIMEOUT wallet");
    expect((await activate()).status).toBe(502);
    expect([(await stored(id)).status, (await intentsOf(id)).length, await approvalUsed(approvalRequestId)]).toEqual([
      "pending_approval",
      0,
      false,
    ]);
    // Released, so another attempt may use it (the custodian refuses again: 502, not 403 "already used").
    const again = await alice("POST", WALLETS, { custodyWalletId: id, approvalRequestId }, idem());
    expect(again.status).toBe(502);
    expect(await eventTypes(id)).toEqual(["custody_wallet.created"]);
  });
});

describe("the reconciler", () => {
  it("backs off while the custodian cannot answer, then fails the wallet `outcome_unconfirmed` after its last attempt", async () => {
    const { id, activate } = await approvedWallet("777.77 custodian down");
    expect((await activate()).status).toBe(202);
    await reconcileUntilGiveUp(server.db.kysely, {
      handler: custodyWalletActivateHandler as IntentHandler,
      resourceId: id,
      providerError: "the custodian is down",
      reconcileAfterSeconds: AFTER,
    });
    const settled = await activate();
    expect([settled.status, settled.json.status]).toEqual([200, "failed"]);
    expect(settled.json.failureReason.code).toBe("outcome_unconfirmed");
    expect(settled.json.failureReason.message).toContain("the custodian is down");
    expect(await eventTypes(id)).toEqual(["custody_wallet.created", "custody_wallet.failed", "custody_wallet.processing"]);
    expect(await intentsOf(id)).toHaveLength(0);
    expect(await activations(id)).toBe(0);
  });

  it("a request that died between its commits (wallet `pending_approval`, key in progress): 409 meanwhile, then `active` with its event once", async () => {
    const { id, key, activate } = await approvedWallet("777.77 crashed");
    expect((await activate()).status).toBe(202);
    // The state a crash after the provider call leaves: the wallet `pending_approval` (version 1, not announced
    // processing), the approval used, the claim in progress with its lease ended, the intent open.
    await server.db.kysely.updateTable("CustodyWallet").set({ status: "pending_approval", version: 1 }).where("id", "=", id).execute();
    await server.db.kysely.deleteFrom("Event").where("resourceId", "=", id).where("type", "=", "custody_wallet.processing").execute();
    await strandKey(server.db.kysely, key["idempotency-key"]);
    const held = await activate();
    expect([held.status, held.json.code]).toEqual([409, "IDEMPOTENCY_IN_PROGRESS"]);

    expect(await reconcile()).toMatchObject({ settled: 1 });
    const settled = await activate();
    const [vault] = await vaults(id);
    expect([settled.status, settled.json.status, settled.json.providerWalletId, settled.json.version]).toEqual([
      200,
      "active",
      vault?.id,
      2,
    ]);
    expect(await eventTypes(id)).toEqual(["custody_wallet.activated", "custody_wallet.created"]);
    expect(await activations(id)).toBe(1);
  });
});

describe("check:invariants", () => {
  it("finds nothing once every intent is settled; names a wallet state without its event and the metrics' rows that disagree", async () => {
    const options = { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 };
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
    const { id, activate } = await approvedWallet("Invariant wallet");
    expect((await activate()).status).toBe(200);
    const transfer = await alice("POST", TRANSFERS, { walletId: id, destination: CLEAN, asset: "USDC", amountMinor: "2000000" }, idem());
    const transferId = transfer.json.custodyTransferId as string;
    // Planted: the activation's event and its activity gone, the transfer counted twice in custody.transfers.
    await server.db.kysely.deleteFrom("Event").where("resourceId", "=", id).where("type", "=", "custody_wallet.activated").execute();
    await server.db.kysely.deleteFrom("ActivityEvent").where("resourceId", "=", id).where("type", "=", "custody_wallet.created").execute();
    await server.db.kysely
      .insertInto("ActivityEvent")
      .values({
        id: "act_planted_twice",
        organizationId: ORG,
        environment: "sandbox",
        type: "custody_transfer.created",
        resourceId: transferId,
      })
      .execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id, detail: "custody_wallet.activated: 0 event(s), expected 1" },
      { check: "metric_disagrees", id: transferId, detail: "counted 2 time(s) in custody.transfers, expected 1" },
      {
        check: "metric_disagrees",
        id,
        detail: "activation counted 0 time(s) (custody_wallet.created activity) for a wallet that is active, expected 1",
      },
    ]);
    // A wallet that never became active counted as activated.
    await server.db.kysely.updateTable("CustodyWallet").set({ status: "rejected" }).where("id", "=", id).execute();
    await server.db.kysely.deleteFrom("ActivityEvent").where("id", "=", "act_planted_twice").execute();
    await server.db.kysely
      .insertInto("ActivityEvent")
      .values({ id: "act_planted_active", organizationId: ORG, environment: "sandbox", type: "custody_wallet.created", resourceId: id })
      .execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id, detail: "custody_wallet.rejected: 0 event(s), expected 1" },
      {
        check: "metric_disagrees",
        id,
        detail: "activation counted 1 time(s) (custody_wallet.created activity) for a wallet that is rejected, expected 0",
      },
    ]);
    await server.db.kysely.deleteFrom("CustodyTransfer").where("id", "=", transferId).execute();
    await server.db.kysely.deleteFrom("CustodyWallet").where("id", "=", id).execute();
  });
});
