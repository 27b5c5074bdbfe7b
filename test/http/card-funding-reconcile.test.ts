// Issue 26 for card funding: an unknown outcome is a state (202, the funding `pending`, not spendable), the simulated
// card issuer executes a reference at most once and can be asked about it, and the reconciler (driven directly, at a
// chosen time) settles the funding in one unit of work — `posted` with its activity and `card.funded` event once, or
// `failed` with a reversing posting and no event — and the key's answer, which the key then replays. The card ledger
// sums throughout. The magic amounts 777.77, 778.88 and 779.99 rehearse it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardFundingHandler } from "../../server/domain/cards/reconcile-card-funding.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { authorizationsPath, type Call, cardPath, checkLedgerInvariants, issueCard, startCardReconcileServer } from "../helpers/cards.ts";
import { eventsOf } from "../helpers/events.ts";
import { intentsOnResource, reconcilePastDeadlines, reconcileUntilGiveUp } from "../helpers/reconcile.ts";
import type { TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_card_reconcile";
/** RECONCILE_AFTER_SECONDS of the test server: intents are due a second after they were written. */
const AFTER = 1;

let server: TestServer;
let call: Call;
let programmeId: string;

const reconcile = () => reconcilePastDeadlines(server.db.kysely, AFTER);
const intentsOf = (id: string) => intentsOnResource(server.db.kysely, id);
const executions = (id: string) => server.db.kysely.selectFrom("SimCardIssuerCall").selectAll().where("idempotencyKey", "=", id).execute();
const activities = (id: string) =>
  server.db.kysely.selectFrom("ActivityEvent").select("id").where("resourceId", "=", id).where("type", "=", "card.funded").execute();
const fundedEvents = async (cardId: string) => (await eventsOf(server, cardId, "card.funded")).length;
const transactionStatus = async (id: string) =>
  (await server.db.kysely.selectFrom("CardTransaction").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

/** A fresh card and a funding of it with `amount` under a key; `fund()` sends it (again). */
async function funding(amount: string) {
  const cardId = await issueCard(call, programmeId);
  const key = idem();
  const fund = () => call("POST", cardPath(cardId, "/fund"), { amount, asset: "USDC" }, key);
  return { cardId, key, fund };
}

beforeAll(async () => {
  ({ server, call, programmeId } = await startCardReconcileServer(ORG, AFTER));
});
afterAll(() => server?.close());

describe("a lost answer from the card issuer (unknown outcome)", () => {
  it("777.77: 202 pending (not spendable), then the reconciler finds it executed: posted, card.funded once, the key replays 200", async () => {
    const { cardId, fund } = await funding("777.77");
    const first = await fund();
    expect(first.status, first.text).toBe(202);
    const id = first.json.transactionId as string;
    expect([first.json.status, first.json.failureReason, first.json.card.balance.available]).toEqual(["pending", null, "777.77"]);
    // The key's answer until the reconciler settles it is the 202.
    const replay = await fund();
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.json]).toEqual([202, "true", first.json]);
    expect(await transactionStatus(id)).toBe("pending");
    expect([await fundedEvents(cardId), (await activities(id)).length, (await executions(id)).length]).toEqual([0, 0, 1]);
    expect(await intentsOf(id)).toHaveLength(1);
    // Not spendable while unconfirmed: an authorization on it is declined.
    const spend = await call("POST", authorizationsPath(cardId), { amount: "10.00" }, idem());
    expect([spend.status, spend.json.status, spend.json.declineReason]).toEqual([201, "declined", "insufficient_funds"]);

    expect(await reconcile()).toMatchObject({ settled: 1, gaveUp: 0, errors: [] });
    expect(await transactionStatus(id)).toBe("posted");
    expect(await intentsOf(id)).toHaveLength(0);
    expect([await fundedEvents(cardId), (await activities(id)).length, (await executions(id)).length]).toEqual([1, 1, 1]);
    const settled = await fund();
    expect([settled.status, settled.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(settled.json).toMatchObject({
      transactionId: id,
      ledgerEntryId: first.json.ledgerEntryId,
      status: "posted",
      failureReason: null,
      card: { cardId, balance: { available: "777.77" } },
    });
    // The event carries the card as the settlement saw it.
    expect((await eventsOf(server, cardId, "card.funded"))[0]?.data).toMatchObject({ cardId, balance: { available: "777.77" } });
    // Settled once: a second run finds nothing; now spendable.
    expect((await reconcile()).claimed).toBe(0);
    const spent = await call("POST", authorizationsPath(cardId), { amount: "10.00" }, idem());
    expect([spent.status, spent.json.status]).toEqual([201, "pending"]);
    await checkLedgerInvariants(server);
  });

  it("778.88: 202 pending, the issuer never executed it: failed `not_executed`, written back, no event, the key replays it", async () => {
    const { cardId, fund } = await funding("778.88");
    const first = await fund();
    expect(first.status, first.text).toBe(202);
    const id = first.json.transactionId as string;
    expect(await executions(id)).toHaveLength(0);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await fund();
    expect(settled.status).toBe(200);
    expect(settled.json).toMatchObject({ transactionId: id, status: "failed", card: { balance: { available: "0.00", ledger: "0.00" } } });
    expect(settled.json.failureReason.code).toBe("not_executed");
    expect(settled.json.card.updatedAt >= first.json.card.updatedAt).toBe(true);
    const listed = await call("GET", cardPath(cardId, "/transactions"));
    expect(listed.json.data.map((t: { transactionId: string; status: string }) => [t.transactionId, t.status])).toEqual([[id, "failed"]]);
    // Written back by a reversing posting under the funding's journal id (the ledger sums; the card holds nothing).
    const entries = await server.db.kysely
      .selectFrom("CardLedgerEntry")
      .select(["kind", "direction"])
      .where("journalId", "=", id)
      .execute();
    expect(entries.map((e) => `${e.kind} ${e.direction}`).sort()).toEqual([
      "funding credit",
      "funding debit",
      "funding_reversal credit",
      "funding_reversal debit",
    ]);
    expect([await fundedEvents(cardId), (await activities(id)).length, (await executions(id)).length]).toEqual([0, 0, 0]);
    expect((await reconcile()).claimed).toBe(0);
    await checkLedgerInvariants(server);
  });

  it("779.99: the issuer answers after 3 s, within the provider timeout: 200 posted, nothing left to reconcile", async () => {
    const { fund } = await funding("779.99");
    const started = Date.now();
    const res = await fund();
    expect(res.status, res.text).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(res.json.status).toBe("posted");
    expect(await intentsOf(res.json.transactionId)).toHaveLength(0);
    expect(await executions(res.json.transactionId)).toHaveLength(1);
  });

  it("a refusal stays as before: 502, the funding, its posting and its intent removed", async () => {
    const { cardId, fund } = await funding("666.66");
    expect((await fund()).status).toBe(502);
    const left = await server.db.kysely.selectFrom("CardTransaction").select("id").where("cardId", "=", cardId).execute();
    const open = await server.db.kysely.selectFrom("ProviderIntent").select("id").where("organizationId", "=", ORG).execute();
    expect([left.length, open.length]).toEqual([0, 0]);
  });
});

describe("the reconciler", () => {
  it("backs off while the issuer cannot answer, then fails the funding `outcome_unconfirmed` after its last attempt", async () => {
    const { cardId, fund } = await funding("777.77");
    const first = await fund();
    expect(first.status, first.text).toBe(202);
    const id = first.json.transactionId as string;
    await reconcileUntilGiveUp(server.db.kysely, {
      handler: cardFundingHandler as IntentHandler,
      resourceId: id,
      providerError: "the issuer is down",
      reconcileAfterSeconds: AFTER,
    });
    const settled = await fund();
    expect([settled.status, settled.json.status, settled.json.failureReason.code]).toEqual([200, "failed", "outcome_unconfirmed"]);
    expect(settled.json.failureReason.message).toContain("the issuer is down");
    expect(settled.json.card.balance.available).toBe("0.00");
    expect(await fundedEvents(cardId)).toBe(0);
    expect(await intentsOf(id)).toHaveLength(0);
  });

  it("a request that died between its commits (funding pending, key in progress): 409 meanwhile, then posted once", async () => {
    const { cardId, key, fund } = await funding("777.77");
    const first = await fund();
    expect(first.status).toBe(202);
    // The state a crash after the issuer call leaves: the claim in progress with its lease ended, the intent open.
    await server.db.kysely
      .updateTable("IdempotencyRecord")
      .set({ state: "in_progress", lockedUntil: new Date(Date.now() - 1_000), responseStatus: null, responseBody: null })
      .where("key", "=", key["idempotency-key"])
      .execute();
    const held = await fund();
    expect([held.status, held.json.code]).toEqual([409, "IDEMPOTENCY_IN_PROGRESS"]);

    expect(await reconcile()).toMatchObject({ settled: 1 });
    const settled = await fund();
    expect([settled.status, settled.json.status]).toEqual([200, "posted"]);
    expect(await fundedEvents(cardId)).toBe(1);
    expect(await executions(first.json.transactionId)).toHaveLength(1);
  });
});

describe("check:invariants", () => {
  it("finds nothing once every funding is settled; names a ledger that does not sum and a posted funding without its event", async () => {
    const options = { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 };
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
    const { cardId, fund } = await funding("25.00");
    const res = await fund();
    expect(res.status, res.text).toBe(200);
    const id = res.json.transactionId as string;
    await server.db.kysely.deleteFrom("Event").where("resourceId", "=", cardId).where("type", "=", "card.funded").execute();
    await server.db.kysely
      .updateTable("CardLedgerEntry")
      .set({ amountMinor: "24000000" })
      .where("id", "=", res.json.ledgerEntryId)
      .execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "ledger_unbalanced", id, detail: "USDC posting does not balance: credits − debits = -1000000 (minor units)" },
      { check: "ledger_disagrees", id, detail: "posted funding credits the card 24000000, expected 25000000 (minor units)" },
      { check: "state_without_event", id: cardId, detail: "card.funded: 0 event(s), 1 posted funding(s)" },
    ]);
    await server.db.kysely
      .updateTable("CardLedgerEntry")
      .set({ amountMinor: "25000000" })
      .where("id", "=", res.json.ledgerEntryId)
      .execute();
    await server.db.kysely.updateTable("CardTransaction").set({ status: "pending" }).where("id", "=", id).execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "ledger_disagrees", id, detail: "funding pending with no open intent: nothing will settle it" },
    ]);
    // Put back as it was: the other tests of this file share the database.
    await server.db.kysely.updateTable("CardTransaction").set({ status: "posted" }).where("id", "=", id).execute();
    await server.db.kysely
      .insertInto("Event")
      .values({
        id: `evt_restore_${id}`,
        organizationId: ORG,
        environment: "sandbox",
        type: "card.funded",
        resourceId: cardId,
        data: JSON.stringify(res.json.card),
        simulated: true,
        createdAt: new Date(),
      })
      .execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
  });
});
