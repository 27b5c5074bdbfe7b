// Issue 26 for custody transfer submission: an unknown outcome is a state (202 `submitted` without `transferId`), the
// simulated custodian submits a reference at most once and can be asked about it, and the reconciler (driven directly,
// at a chosen time) settles the transfer in one unit of work — its final state, exactly one event per state, and the
// key's answer, which the key then replays. The magic amounts 777.77, 778.88 and 779.99 (USDC) rehearse it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { custodyTransferSubmitHandler } from "../../server/domain/custody/reconcile-custody-transfer.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { eventsOf } from "../helpers/events.ts";
import { deciderWithKey } from "../helpers/members.ts";
import { intentsOnResource, reconcilePastDeadlines, reconcileUntilGiveUp, strandKey } from "../helpers/reconcile.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";

const ORG = "org_ct_reconcile";
const WALLETS = "/api/v2/agent/custody/wallets";
const TRANSFERS = "/api/v2/agent/custody/transfers";
const STATUS = "/api/v2/agent/custody/transfers/status";
const APPROVE = (id: string) => `/api/v2/agent/approvals/${id}/approve`;
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";
/** RECONCILE_AFTER_SECONDS of the test server: intents are due a second after they were written. */
const AFTER = 1;
/** 777.77, 778.88 and 779.99 USDC (6 decimals). */
const EXECUTED_THEN_LOST = "777770000";
const NEVER_EXECUTED = "778880000";
const SLOW = "779990000";

type Call = ReturnType<typeof api>;
let server: TestServer;
let alice: Call;
let bob: Call;
let walletId: string;

const reconcile = () => reconcilePastDeadlines(server.db.kysely, AFTER);
const intentsOf = (id: string) => intentsOnResource(server.db.kysely, id);
const submissions = (id: string) =>
  server.db.kysely.selectFrom("SimCustodyTransfer").selectAll().where("idempotencyKey", "=", id).execute();
const stored = (id: string) => server.db.kysely.selectFrom("CustodyTransfer").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const eventTypes = async (id: string) => (await eventsOf(server, id)).map((e) => e.type).sort();
const APPROVED_AND_SUBMITTED = ["custody_transfer.approved", "custody_transfer.created", "custody_transfer.submitted"];

beforeAll(async () => {
  server = await startTestServer({ env: { RECONCILE_AFTER_SECONDS: String(AFTER) } });
  alice = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "alice" })).key);
  bob = await deciderWithKey(server, ORG, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key);
  await connect(server, { organizationId: ORG, category: "custody" });
  const requested = await alice("POST", WALLETS, { label: "Treasury operations", chain: "base", type: "mpc" }, idem());
  expect(requested.status, requested.text).toBe(201);
  expect((await bob("POST", APPROVE(requested.json.approvalRequestId), {})).status).toBe(200);
  const active = await alice(
    "POST",
    WALLETS,
    { custodyWalletId: requested.json.custodyWalletId, approvalRequestId: requested.json.approvalRequestId },
    idem(),
  );
  expect(active.status, active.text).toBe(200);
  walletId = active.json.custodyWalletId;
});
afterAll(() => server?.close());

/** A transfer of `amountMinor` USDC requested and approved; `submit` sends shape 2 under `key`. */
async function approvedTransfer(amountMinor: string) {
  const requested = await alice("POST", TRANSFERS, { walletId, destination: CLEAN, asset: "USDC", amountMinor }, idem());
  expect(requested.status, requested.text).toBe(201);
  const { custodyTransferId: id, approvalRequestId } = requested.json;
  expect((await bob("POST", APPROVE(approvalRequestId), {})).status).toBe(200);
  const key = idem();
  const submit = () => alice("POST", TRANSFERS, { custodyTransferId: id, approvalRequestId }, key);
  return { id: id as string, key, submit };
}

describe("a lost answer from the custodian (unknown outcome)", () => {
  it("777.77: 202 submitted without transferId, then the reconciler finds it submitted: its transferId, no event more, the key replays 200", async () => {
    const { id, submit } = await approvedTransfer(EXECUTED_THEN_LOST);
    const first = await submit();
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({ custodyTransferId: id, status: "submitted", transferId: null, version: 3 });
    // The key's answer until the reconciler settles it is the 202.
    const replay = await submit();
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.json]).toEqual([202, "true", first.json]);
    expect(await eventTypes(id)).toEqual(APPROVED_AND_SUBMITTED);
    expect(await submissions(id)).toHaveLength(1);
    expect(await intentsOf(id)).toHaveLength(1);
    // Not confirmed yet: shape 3 and a status read answer it as stored, without asking the custodian.
    const advanced = await alice("POST", TRANSFERS, { custodyTransferId: id, expectedVersion: 3 }, idem());
    expect([advanced.status, advanced.json.version, advanced.json.transferId]).toEqual([200, 3, null]);
    const status = await alice("POST", STATUS, { custodyTransferId: id }, {});
    expect([status.status, status.json.version, status.json.transferId]).toEqual([200, 3, null]);

    expect(await reconcile()).toMatchObject({ settled: 1, gaveUp: 0, errors: [] });
    const [submission] = await submissions(id);
    const row = await stored(id);
    expect([row.status, row.providerTransferId, row.version]).toEqual(["submitted", submission?.id, 4]);
    expect(await intentsOf(id)).toHaveLength(0);
    expect(await eventTypes(id)).toEqual(APPROVED_AND_SUBMITTED);
    const settled = await submit();
    expect([settled.status, settled.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(settled.json).toMatchObject({ custodyTransferId: id, status: "submitted", transferId: submission?.id, version: 4 });
    // Settled once: a second run finds nothing, and the custodian submitted the reference once.
    expect((await reconcile()).claimed).toBe(0);
    expect(await submissions(id)).toHaveLength(1);
    // Confirmed by the custodian, it advances as usual.
    const completed = await alice("POST", TRANSFERS, { custodyTransferId: id, expectedVersion: 4 }, idem());
    expect([completed.status, completed.json.status]).toEqual([200, "completed"]);
  });

  it("778.88: 202, the custodian never submitted it: failed `not_executed`, its event once, the key replays it", async () => {
    const { id, submit } = await approvedTransfer(NEVER_EXECUTED);
    const first = await submit();
    expect(first.status, first.text).toBe(202);
    expect(await submissions(id)).toHaveLength(0);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await submit();
    expect([settled.status, settled.json.status, settled.json.transferId]).toEqual([200, "failed", null]);
    expect(settled.json.failureReason).toMatchObject({ code: "not_executed" });
    expect(await eventTypes(id)).toEqual([...APPROVED_AND_SUBMITTED, "custody_transfer.failed"].sort());
    expect(await submissions(id)).toHaveLength(0);
    expect((await reconcile()).claimed).toBe(0);
  });

  it("779.99: the custodian answers after 3 s, within the provider timeout: 200 submitted, nothing left to reconcile", async () => {
    const { id, submit } = await approvedTransfer(SLOW);
    const started = Date.now();
    const res = await submit();
    expect(res.status, res.text).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(res.json.status).toBe("submitted");
    expect(res.json.transferId).toMatch(/^sim_tx_/);
    expect(await intentsOf(id)).toHaveLength(0);
    expect(await submissions(id)).toHaveLength(1);
  });

  it("a refusal stays as before: 502, the transfer `approved`, its intent closed", async () => {
    const requested = await alice(
      "POST",
      TRANSFERS,
      { walletId, destination: CLEAN, asset: "USDC", amountMinor: "1000000", note: "TIMEOUT x" },
      idem(),
    );
    const { custodyTransferId: id, approvalRequestId } = requested.json;
    expect((await bob("POST", APPROVE(approvalRequestId), {})).status).toBe(200);
    const res = await alice("POST", TRANSFERS, { custodyTransferId: id, approvalRequestId }, idem());
    expect(res.status).toBe(502);
    expect([(await stored(id)).status, (await intentsOf(id)).length]).toEqual(["approved", 0]);
  });
});

describe("the reconciler", () => {
  it("backs off while the custodian cannot answer, then fails the transfer `outcome_unconfirmed` after its last attempt", async () => {
    const { id, submit } = await approvedTransfer(EXECUTED_THEN_LOST);
    expect((await submit()).status).toBe(202);
    await reconcileUntilGiveUp(server.db.kysely, {
      handler: custodyTransferSubmitHandler as IntentHandler,
      resourceId: id,
      providerError: "the custodian is down",
      reconcileAfterSeconds: AFTER,
    });
    const settled = await submit();
    expect([settled.status, settled.json.status]).toEqual([200, "failed"]);
    expect(settled.json.failureReason.code).toBe("outcome_unconfirmed");
    expect(settled.json.failureReason.message).toContain("the custodian is down");
    expect(await eventTypes(id)).toEqual([...APPROVED_AND_SUBMITTED, "custody_transfer.failed"].sort());
    expect(await intentsOf(id)).toHaveLength(0);
  });

  it("a request that died between its commits (transfer `approved`, key in progress): 409 meanwhile, then `submitted` with its event once", async () => {
    const { id, key, submit } = await approvedTransfer(EXECUTED_THEN_LOST);
    expect((await submit()).status).toBe(202);
    // The state a crash after the provider call leaves: the transfer `approved` (version 2, not announced submitted),
    // the claim in progress with its lease ended, the intent open.
    await server.db.kysely.updateTable("CustodyTransfer").set({ status: "approved", version: 2 }).where("id", "=", id).execute();
    await server.db.kysely.deleteFrom("Event").where("resourceId", "=", id).where("type", "=", "custody_transfer.submitted").execute();
    await strandKey(server.db.kysely, key["idempotency-key"]);
    const held = await submit();
    expect([held.status, held.json.code]).toEqual([409, "IDEMPOTENCY_IN_PROGRESS"]);

    expect(await reconcile()).toMatchObject({ settled: 1 });
    const settled = await submit();
    const [submission] = await submissions(id);
    expect([settled.status, settled.json.status, settled.json.transferId, settled.json.version]).toEqual([
      200,
      "submitted",
      submission?.id,
      3,
    ]);
    expect(await eventTypes(id)).toEqual(APPROVED_AND_SUBMITTED);
  });
});

describe("check:invariants", () => {
  it("finds nothing once every intent is settled; names a custody transfer state whose event is missing", async () => {
    const options = { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 };
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
    const { id, submit } = await approvedTransfer("2500000");
    expect((await submit()).status).toBe(200);
    await server.db.kysely.deleteFrom("Event").where("resourceId", "=", id).where("type", "=", "custody_transfer.approved").execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id, detail: "custody_transfer.approved: 0 event(s), expected 1" },
    ]);
    await server.db.kysely.updateTable("CustodyTransfer").set({ status: "rejected" }).where("id", "=", id).execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id, detail: "custody_transfer.rejected: 0 event(s), expected 1" },
      { check: "event_without_state", id, detail: "custody_transfer.submitted for a state the transfer (rejected) never entered" },
    ]);
    await server.db.kysely.deleteFrom("CustodyTransfer").where("id", "=", id).execute();
  });
});
