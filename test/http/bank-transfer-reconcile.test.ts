// Issue 26 for bank transfer creation: an unknown outcome is a state (202 `processing`), the simulator executes a
// reference at most once and can be asked about it, and the reconciler (driven directly, at a chosen time) settles the
// transfer in one unit of work — its final state, exactly one event per state, the activity once, and the key's
// answer, which the key then replays. The magic amounts 777.77, 778.88 and 779.99 rehearse it; for a cancellation
// (family `bank_transfer.cancel`), the transfer's references CANCEL-LOST-EXECUTED… and CANCEL-LOST….
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankTransferCreateHandler } from "../../server/domain/bank-transfers/reconcile-bank-transfer.ts";
import { bankTransferCancelHandler } from "../../server/domain/bank-transfers/reconcile-bank-transfer-cancel.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { eventsOf } from "../helpers/events.ts";
import { intentsOnResource, reconcilePastDeadlines, reconcileUntilGiveUp } from "../helpers/reconcile.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";
import { sepaTransfer } from "../system/bodies.ts";

const ORG = "org_bt_reconcile";
const CREATE = "/api/v2/agent/payments/bank-transfer";
/** RECONCILE_AFTER_SECONDS of the test server: intents are due a second after they were written. */
const AFTER = 1;

let server: TestServer;
let call: ReturnType<typeof api>;

const reconcile = () => reconcilePastDeadlines(server.db.kysely, AFTER);
const intentsOf = (transferId: string) => intentsOnResource(server.db.kysely, transferId);
const executions = (transferId: string) =>
  server.db.kysely.selectFrom("SimBankTransfer").selectAll().where("idempotencyKey", "=", transferId).execute();
const activities = (transferId: string) =>
  server.db.kysely.selectFrom("ActivityEvent").select("id").where("resourceId", "=", transferId).execute();
const eventTypes = async (transferId: string) => (await eventsOf(server, transferId)).map((e) => e.type).sort();

beforeAll(async () => {
  server = await startTestServer({ env: { RECONCILE_AFTER_SECONDS: String(AFTER) } });
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["payments:write"] })).key);
});
afterAll(() => server?.close());

describe("a lost answer from the bank (unknown outcome)", () => {
  it("777.77: 202 processing, then the reconciler finds it executed: the bank's id, one event per state, the key replays 201", async () => {
    const key = idem();
    const first = await call("POST", CREATE, sepaTransfer("REC-777", "777.77"), key);
    expect(first.status, first.text).toBe(202);
    const id = first.json.id as string;
    expect(first.json.status).toBe("processing");
    expect(first.json.statusHistory.map((c: { status: string }) => c.status)).toEqual(["pending", "processing"]);
    // The key's answer until the reconciler settles it is the 202.
    const replay = await call("POST", CREATE, sepaTransfer("REC-777", "777.77"), key);
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.json]).toEqual([202, "true", first.json]);
    expect(await eventTypes(id)).toEqual(["bank_transfer.created", "bank_transfer.submitted"]);
    expect(await executions(id)).toHaveLength(1);
    expect(await activities(id)).toHaveLength(0);
    expect(await intentsOf(id)).toHaveLength(1);

    const run = await reconcile();
    expect(run).toMatchObject({ settled: 1, gaveUp: 0, errors: [] });
    const row = await server.db.kysely.selectFrom("BankTransfer").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect([row.status, row.providerTransferId]).toEqual(["processing", (await executions(id))[0]?.providerTransferId]);
    expect(await intentsOf(id)).toHaveLength(0);
    // No state changed: no event more; the creation counted once, now that it is known.
    expect(await eventTypes(id)).toEqual(["bank_transfer.created", "bank_transfer.submitted"]);
    expect(await activities(id)).toHaveLength(1);
    const settled = await call("POST", CREATE, sepaTransfer("REC-777", "777.77"), key);
    expect([settled.status, settled.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(settled.json).toMatchObject({ id, status: "processing", failureReason: null });
    // Settled once: a second run finds nothing, and the bank executed the reference once.
    expect((await reconcile()).claimed).toBe(0);
    expect(await executions(id)).toHaveLength(1);
    // Confirmed by the bank, it advances as usual.
    const status = await call("POST", `${CREATE}/status`, { transferId: id, senderJurisdiction: "DE", receiverJurisdiction: "FR" }, idem());
    expect([status.status, status.json.status]).toEqual([200, "completed"]);
  });

  it("778.88: 202 processing, the bank never executed it: failed `not_executed`, its event once, the key replays it", async () => {
    const key = idem();
    const first = await call("POST", CREATE, sepaTransfer("REC-778", "778.88"), key);
    expect(first.status, first.text).toBe(202);
    const id = first.json.id as string;
    expect(await executions(id)).toHaveLength(0);
    // Not confirmed by the bank: a status refresh does not advance it blind.
    const status = await call("POST", `${CREATE}/status`, { transferId: id, senderJurisdiction: "DE", receiverJurisdiction: "FR" }, idem());
    expect([status.status, status.json.status]).toEqual([200, "processing"]);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await call("POST", CREATE, sepaTransfer("REC-778", "778.88"), key);
    expect(settled.status).toBe(201);
    expect(settled.json.status).toBe("failed");
    expect(settled.json.failureReason).toMatchObject({ code: "not_executed", railCode: null });
    expect(settled.json.statusHistory.map((c: { status: string }) => c.status)).toEqual(["pending", "processing", "failed"]);
    expect(await eventTypes(id)).toEqual(["bank_transfer.created", "bank_transfer.failed", "bank_transfer.submitted"]);
    expect(await activities(id)).toHaveLength(0);
    expect(await executions(id)).toHaveLength(0);
    expect((await reconcile()).claimed).toBe(0);
  });

  it("779.99: the bank answers after 3 s, within the provider timeout: 201 pending, nothing left to reconcile", async () => {
    const started = Date.now();
    const res = await call("POST", CREATE, sepaTransfer("REC-779", "779.99"), idem());
    expect(res.status, res.text).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(res.json.status).toBe("pending");
    expect(await intentsOf(res.json.id)).toHaveLength(0);
    expect(await executions(res.json.id)).toHaveLength(1);
  });

  it("a refusal stays as before: 502, the transfer and its intent removed", async () => {
    const res = await call("POST", CREATE, sepaTransfer("REC-666", "666.66"), idem());
    expect(res.status).toBe(502);
    const left = await server.db.kysely.selectFrom("ProviderIntent").select("id").where("organizationId", "=", ORG).execute();
    const transfers = await server.db.kysely.selectFrom("BankTransfer").select("id").where("amountMinor", "=", "66666").execute();
    expect([left.length, transfers.length]).toEqual([0, 0]);
  });
});

describe("the reconciler", () => {
  it("backs off while the bank cannot answer, then fails the transfer `outcome_unconfirmed` after its last attempt", async () => {
    const key = idem();
    const first = await call("POST", CREATE, sepaTransfer("REC-DOWN", "777.77"), key);
    expect(first.status, first.text).toBe(202);
    const id = first.json.id as string;
    await reconcileUntilGiveUp(server.db.kysely, {
      handler: bankTransferCreateHandler as IntentHandler,
      resourceId: id,
      providerError: "the bank is down",
      reconcileAfterSeconds: AFTER,
    });
    const settled = await call("POST", CREATE, sepaTransfer("REC-DOWN", "777.77"), key);
    expect(settled.json.status).toBe("failed");
    expect(settled.json.failureReason.code).toBe("outcome_unconfirmed");
    expect(settled.json.failureReason.message).toContain("the bank is down");
    expect(await eventTypes(id)).toEqual(["bank_transfer.created", "bank_transfer.failed", "bank_transfer.submitted"]);
    expect(await intentsOf(id)).toHaveLength(0);
  });

  it("settles an intent once when two runs race for it (claims are exclusive)", async () => {
    const first = await call("POST", CREATE, sepaTransfer("REC-RACE", "777.77"), idem());
    const id = first.json.id as string;
    const runs = await Promise.all([reconcile(), reconcile()]);
    expect(runs.map((r) => r.settled).sort()).toEqual([0, 1]);
    expect(await activities(id)).toHaveLength(1);
    expect(await eventTypes(id)).toEqual(["bank_transfer.created", "bank_transfer.submitted"]);
  });
});

const CANCEL = `${CREATE}/cancel`;
const lookupBody = (transferId: string) => ({ transferId, senderJurisdiction: "DE", receiverJurisdiction: "FR" });
const cancellations = (transferId: string) =>
  server.db.kysely.selectFrom("SimBankTransfer").selectAll().where("idempotencyKey", "=", `${transferId}:cancel`).execute();
/** A transfer created normally (201 pending) whose reference decides how its cancellation goes. */
async function createdTransfer(reference: string): Promise<string> {
  const res = await call("POST", CREATE, sepaTransfer(reference), idem());
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

describe("a lost answer to a cancellation (family bank_transfer.cancel)", () => {
  it("answered: 200 cancelled, the intent closed, the bank cancelled under `<id>:cancel` once", async () => {
    const id = await createdTransfer("REC-CANCEL-OK");
    const res = await call("POST", CANCEL, lookupBody(id), idem());
    expect([res.status, res.json.status]).toEqual([200, "cancelled"]);
    expect(await intentsOf(id)).toHaveLength(0);
    expect(await cancellations(id)).toHaveLength(1);
  });

  it("CANCEL-LOST-EXECUTED: 202 unchanged, status refreshes leave it alone, the reconciler records `cancelled` once, the key replays 200", async () => {
    const id = await createdTransfer("CANCEL-LOST-EXECUTED 1");
    const key = idem();
    const first = await call("POST", CANCEL, lookupBody(id), key);
    expect([first.status, first.json.status], first.text).toEqual([202, "pending"]);
    const replay = await call("POST", CANCEL, lookupBody(id), key);
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.json]).toEqual([202, "true", first.json]);
    expect((await intentsOf(id)).map((i) => [i.family, i.reference])).toEqual([["bank_transfer.cancel", `${id}:cancel`]]);
    expect(await cancellations(id)).toHaveLength(1);
    // The bank may have cancelled it: a refresh does not advance it meanwhile (the simulator would report `processing`).
    const status = await call("POST", `${CREATE}/status`, lookupBody(id), idem());
    expect([status.status, status.json.status]).toEqual([200, "pending"]);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    expect(await eventTypes(id)).toEqual(["bank_transfer.cancelled", "bank_transfer.created"]);
    expect(await intentsOf(id)).toHaveLength(0);
    const settled = await call("POST", CANCEL, lookupBody(id), key);
    expect([settled.status, settled.headers.get("idempotent-replayed"), settled.json.status]).toEqual([200, "true", "cancelled"]);
    expect(settled.json.statusHistory.map((c: { status: string }) => c.status)).toEqual(["pending", "cancelled"]);
    expect((await reconcile()).claimed).toBe(0);
    expect(await cancellations(id)).toHaveLength(1);
  });

  it("CANCEL-LOST: 202, the bank never cancelled it: the transfer unchanged, no event, the key replays 502", async () => {
    const id = await createdTransfer("CANCEL-LOST 1");
    const key = idem();
    const first = await call("POST", CANCEL, lookupBody(id), key);
    expect(first.status, first.text).toBe(202);
    expect(await cancellations(id)).toHaveLength(0);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await call("POST", CANCEL, lookupBody(id), key);
    expect([settled.status, settled.headers.get("idempotent-replayed"), settled.headers.get("content-type")]).toEqual([
      502,
      "true",
      "application/problem+json; charset=utf-8",
    ]);
    expect(settled.json).toMatchObject({ code: "PROVIDER_EXECUTION_FAILED", status: 502 });
    expect(settled.json.detail).toContain("did not cancel the transfer");
    expect(await eventTypes(id)).toEqual(["bank_transfer.created"]);
    expect(await intentsOf(id)).toHaveLength(0);
    // Left as it was, it advances as usual again.
    const status = await call("POST", `${CREATE}/status`, lookupBody(id), idem());
    expect([status.status, status.json.status]).toEqual([200, "processing"]);
  });

  it("the bank unable to answer: after the last attempt the transfer is unchanged and the key answers 502 naming the last error", async () => {
    const id = await createdTransfer("CANCEL-LOST 2");
    const key = idem();
    expect((await call("POST", CANCEL, lookupBody(id), key)).status).toBe(202);
    await reconcileUntilGiveUp(server.db.kysely, {
      handler: bankTransferCancelHandler as IntentHandler,
      resourceId: id,
      providerError: "the bank is down",
      reconcileAfterSeconds: AFTER,
    });
    const settled = await call("POST", CANCEL, lookupBody(id), key);
    expect([settled.status, settled.json.code]).toEqual([502, "PROVIDER_EXECUTION_FAILED"]);
    expect(settled.json.detail).toContain("could not confirm whether it cancelled the transfer");
    expect(settled.json.detail).toContain("the bank is down");
    const row = await server.db.kysely.selectFrom("BankTransfer").select("status").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("pending");
    expect(await eventTypes(id)).toEqual(["bank_transfer.created"]);
  });
});

describe("check:invariants", () => {
  it("finds nothing once every intent is settled; names a state whose event is missing and a transfer the metric missed", async () => {
    const options = { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 };
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
    const res = await call("POST", CREATE, sepaTransfer("REC-INV"), idem());
    const id = res.json.id as string;
    await server.db.kysely.deleteFrom("Event").where("resourceId", "=", id).execute();
    await server.db.kysely.deleteFrom("ActivityEvent").where("resourceId", "=", id).execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id, detail: "bank_transfer.created: 0 event(s), expected 1" },
      { check: "metric_disagrees", id, detail: "counted 0 time(s) in bank_transfers.volume, expected 1" },
    ]);
    await server.db.kysely.deleteFrom("BankTransfer").where("id", "=", id).execute();
  });
});

describe("the key of a write whose intent is open", () => {
  it("stays in progress past its lease (409, nothing executed again), then replays the reconciler's answer", async () => {
    const key = idem();
    const first = await call("POST", CREATE, sepaTransfer("REC-HELD", "777.77"), key);
    const id = first.json.id as string;
    // The state a crash between the two commits leaves: the claim in progress with its lease ended, the intent open.
    await server.db.kysely
      .updateTable("IdempotencyRecord")
      .set({ state: "in_progress", lockedUntil: new Date(Date.now() - 1_000), responseStatus: null, responseBody: null })
      .where("key", "=", key["idempotency-key"])
      .execute();
    const held = await call("POST", CREATE, sepaTransfer("REC-HELD", "777.77"), key);
    expect([held.status, held.json.code]).toEqual([409, "IDEMPOTENCY_IN_PROGRESS"]);
    expect(await server.db.kysely.selectFrom("BankTransfer").select("id").where("reference", "=", "REC-HELD").execute()).toHaveLength(1);

    expect(await reconcile()).toMatchObject({ settled: 1 });
    const settled = await call("POST", CREATE, sepaTransfer("REC-HELD", "777.77"), key);
    expect([settled.status, settled.json.id, settled.json.status]).toEqual([201, id, "processing"]);
  });
});
