// Issue 26 for card issuing: an unknown outcome is a state (202, the card `pending`: readable, not writable), the
// simulated card issuer issues a card id at most once and can be asked about it, and the reconciler (driven directly, at
// a chosen time) settles the card in one unit of work — `active` with the issuer's details, its activity and
// `card.issued` event once, or `failed` with its reason and no event — and the key's answer, which the key then replays.
// The magic `limits.perAuthorization` values 777.77, 778.88 and 779.99 rehearse it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardIssueHandler } from "../../server/domain/cards/reconcile-card-issue.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { CARDS, type Call, cardholderBody, cardPath, startCardReconcileServer } from "../helpers/cards.ts";
import { eventsOf } from "../helpers/events.ts";
import { intentsOnResource, reconcilePastDeadlines, reconcileUntilGiveUp } from "../helpers/reconcile.ts";
import type { TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_card_issue_reconcile";
/** RECONCILE_AFTER_SECONDS of the test server: intents are due a second after they were written. */
const AFTER = 1;

let server: TestServer;
let call: Call;
let programmeId: string;

const reconcile = () => reconcilePastDeadlines(server.db.kysely, AFTER);
const intentsOf = (id: string) => intentsOnResource(server.db.kysely, id);
const executions = (id: string) => server.db.kysely.selectFrom("SimCardIssuerCall").selectAll().where("idempotencyKey", "=", id).execute();
const activities = (id: string) => server.db.kysely.selectFrom("ActivityEvent").select("id").where("resourceId", "=", id).execute();
const issuedEvents = async (cardId: string) => (await eventsOf(server, cardId, "card.issued")).length;

/** An issuing with `perAuthorization` as the card's limit under a key; `issue()` sends it (again). */
function issuing(perAuthorization: string) {
  const key = idem();
  const body = { programmeId, cardholder: cardholderBody(), limits: { perAuthorization } };
  return { key, issue: () => call("POST", `${CARDS}/issue`, body, key) };
}

beforeAll(async () => {
  ({ server, call, programmeId } = await startCardReconcileServer(ORG, AFTER));
});
afterAll(() => server?.close());

describe("a lost answer from the card issuer (unknown outcome)", () => {
  it("777.77: 202 pending (readable, no write), then the reconciler finds it issued: active, card.issued once, the key replays 201", async () => {
    const { issue } = issuing("777.77");
    const first = await issue();
    expect(first.status, first.text).toBe(202);
    const cardId = first.json.cardId as string;
    expect(first.json).toMatchObject({ status: "pending", last4: null, expMonth: null, expYear: null });
    const replay = await issue();
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.json]).toEqual([202, "true", first.json]);
    // Readable as it stands, listed, and no write reaches it.
    expect((await call("GET", cardPath(cardId))).json).toMatchObject({ cardId, status: "pending", last4: null });
    const listed = await call("GET", `${CARDS}?status=pending`);
    expect(listed.json.data.map((c: { cardId: string }) => c.cardId)).toContain(cardId);
    expect((await call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, idem())).status).toBe(404);
    expect((await call("POST", cardPath(cardId, "/freeze"), {}, idem())).status).toBe(404);
    expect([await issuedEvents(cardId), (await activities(cardId)).length, (await executions(cardId)).length]).toEqual([0, 0, 1]);
    expect(await intentsOf(cardId)).toHaveLength(1);

    expect(await reconcile()).toMatchObject({ settled: 1, gaveUp: 0, errors: [] });
    const [executed] = await executions(cardId);
    const settled = await issue();
    expect([settled.status, settled.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(settled.json).toMatchObject({
      cardId,
      status: "active",
      statusReason: null,
      ...pick(executed?.result, ["last4", "expMonth", "expYear"]),
    });
    expect(settled.json.last4).toMatch(/^[0-9]{4}$/);
    expect([await issuedEvents(cardId), (await activities(cardId)).length]).toEqual([1, 1]);
    expect((await eventsOf(server, cardId, "card.issued"))[0]?.data).toEqual(settled.json);
    expect(await intentsOf(cardId)).toHaveLength(0);
    expect((await reconcile()).claimed).toBe(0);
    // Issued: it takes writes now.
    expect((await call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, idem())).status).toBe(200);
  });

  it("778.88: 202 pending, the issuer never issued it: failed `not_executed`, no event, the key replays it; its cardholder stays usable", async () => {
    const { issue } = issuing("778.88");
    const first = await issue();
    expect(first.status, first.text).toBe(202);
    const cardId = first.json.cardId as string;
    expect(await executions(cardId)).toHaveLength(0);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await issue();
    expect(settled.status).toBe(201);
    expect(settled.json).toMatchObject({ cardId, status: "failed", last4: null });
    expect(settled.json.statusReason).toMatch(/^not_executed: /);
    expect((await call("GET", cardPath(cardId))).json.status).toBe("failed");
    expect((await call("POST", cardPath(cardId, "/limits"), { limits: {} }, idem())).status).toBe(404);
    expect([await issuedEvents(cardId), (await activities(cardId)).length, (await executions(cardId)).length]).toEqual([0, 0, 0]);
    expect((await reconcile()).claimed).toBe(0);
    const again = await call("POST", `${CARDS}/issue`, { programmeId, cardholderId: first.json.cardholderId }, idem());
    expect([again.status, again.json.status]).toEqual([201, "active"]);
  });

  it("779.99: the issuer answers after 3 s, within the provider timeout: 201 active, nothing left to reconcile", async () => {
    const started = Date.now();
    const res = await issuing("779.99").issue();
    expect(res.status, res.text).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(res.json.status).toBe("active");
    expect(await intentsOf(res.json.cardId)).toHaveLength(0);
    expect(await executions(res.json.cardId)).toHaveLength(1);
  });

  it("a refusal stays as before: 502, the card and its intent removed", async () => {
    const before = await server.db.kysely.selectFrom("Card").select("id").where("organizationId", "=", ORG).execute();
    const res = await call("POST", `${CARDS}/issue`, { programmeId }, { ...idem(), "sandbox-simulate-error": "PROVIDER_EXECUTION_FAILED" });
    expect(res.status).toBe(502);
    const after = await server.db.kysely.selectFrom("Card").select("id").where("organizationId", "=", ORG).execute();
    const open = await server.db.kysely.selectFrom("ProviderIntent").select("id").where("organizationId", "=", ORG).execute();
    expect([after.length, open.length]).toEqual([before.length, 0]);
  });
});

describe("the reconciler", () => {
  it("backs off while the issuer cannot answer, then fails the card `outcome_unconfirmed` after its last attempt", async () => {
    const { issue } = issuing("777.77");
    const first = await issue();
    expect(first.status, first.text).toBe(202);
    const cardId = first.json.cardId as string;
    await reconcileUntilGiveUp(server.db.kysely, {
      handler: cardIssueHandler as IntentHandler,
      resourceId: cardId,
      providerError: "the issuer is down",
      reconcileAfterSeconds: AFTER,
    });
    const settled = await issue();
    expect([settled.status, settled.json.status]).toEqual([201, "failed"]);
    expect(settled.json.statusReason).toMatch(/^outcome_unconfirmed: .*the issuer is down/);
    expect(await issuedEvents(cardId)).toBe(0);
  });
});

describe("check:invariants", () => {
  it("finds nothing once every card is settled; names an issued card without its event and a pending card nothing settles", async () => {
    const options = { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 };
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
    const res = await issuing("100.00").issue();
    expect(res.status, res.text).toBe(201);
    const cardId = res.json.cardId as string;
    const [event] = await eventsOf(server, cardId, "card.issued");
    await server.db.kysely
      .deleteFrom("Event")
      .where("id", "=", event?.id as string)
      .execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id: cardId, detail: "card.issued: 0 event(s), expected 1 (active)" },
    ]);
    await server.db.kysely.updateTable("Card").set({ status: "pending" }).where("id", "=", cardId).execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id: cardId, detail: "card pending with no open intent: nothing will settle it" },
    ]);
    await server.db.kysely.updateTable("Card").set({ status: "failed" }).where("id", "=", cardId).execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
  });
});

function pick(value: unknown, keys: string[]): Record<string, unknown> {
  const record = value as Record<string, unknown>;
  return Object.fromEntries(keys.map((k) => [k, record[k]]));
}
