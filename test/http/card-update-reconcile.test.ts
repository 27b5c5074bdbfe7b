// Issue 26 for a card's status and limits changes: an unknown outcome is a state (202, the card showing the requested
// change with `pendingUpdate` set; no other status or limits change meanwhile), the simulated card issuer applies a
// change's reference at most once and can be asked about it, and the reconciler (driven directly, at a chosen time)
// settles it in one unit of work — the change stands with its activity and event once, or the card is put back as it
// was, with no event and the key answered 502 — and the key's answer, which the key then replays. Magic values: the
// start of `reason` (status) and `limits.perAuthorization` (limits): 777.77, 778.88, 779.99.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardLimitsHandler, cardStatusHandler } from "../../server/domain/cards/reconcile-card-update.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { type Call, cardPath, issueCard, startCardReconcileServer } from "../helpers/cards.ts";
import { eventsOf } from "../helpers/events.ts";
import { intentsOnResource, reconcilePastDeadlines, reconcileUntilGiveUp } from "../helpers/reconcile.ts";
import type { TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_card_update_reconcile";
/** RECONCILE_AFTER_SECONDS of the test server: intents are due a second after they were written. */
const AFTER = 1;
const LIMITS = { perAuthorization: "100.00", daily: "900.00" };

let server: TestServer;
let call: Call;
let programmeId: string;

const reconcile = () => reconcilePastDeadlines(server.db.kysely, AFTER);
const intentsOf = (id: string) => intentsOnResource(server.db.kysely, id);
/** What the simulated issuer applied for the card (its calls' idempotency keys are `<card id>:<request id>`). */
const applied = (cardId: string, operation: string) =>
  server.db.kysely
    .selectFrom("SimCardIssuerCall")
    .select("idempotencyKey")
    .where("idempotencyKey", "like", `${cardId}:%`)
    .where("operation", "=", operation)
    .execute();
const activities = (cardId: string, type: string) =>
  server.db.kysely.selectFrom("ActivityEvent").select("id").where("resourceId", "=", cardId).where("type", "=", type).execute();
const counted = async (cardId: string, type: string) => [
  (await eventsOf(server, cardId, type)).length,
  (await activities(cardId, type)).length,
];

/** A new active card with LIMITS; `send(path, body)` sends a change under a key, and sends it again with the same key. */
async function card() {
  const cardId = await issueCard(call, programmeId, { limits: LIMITS });
  const change = (suffix: string, body: Record<string, unknown>) => {
    const key = idem();
    return { send: () => call("POST", cardPath(cardId, suffix), body, key) };
  };
  return { cardId, change };
}

beforeAll(async () => {
  ({ server, call, programmeId } = await startCardReconcileServer(ORG, AFTER));
});
afterAll(() => server?.close());

describe("a lost answer from the card issuer (unknown outcome)", () => {
  it("freeze, reason 777.77: 202 frozen with the change pending (no other change), then applied: card.frozen once, the key replays 200", async () => {
    const { cardId, change } = await card();
    const freeze = change("/freeze", { reason: "777.77 lost card" });
    const first = await freeze.send();
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({ status: "frozen", statusReason: "777.77 lost card", pendingUpdate: { type: "status" } });
    const replay = await freeze.send();
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.json]).toEqual([202, "true", first.json]);
    expect((await call("GET", cardPath(cardId))).json.pendingUpdate).toEqual(first.json.pendingUpdate);
    // One unconfirmed change at a time.
    for (const [suffix, body] of [
      ["/unfreeze", {}],
      ["/deactivate", {}],
      ["/limits", { limits: {} }],
    ] as const) {
      const other = await call("POST", cardPath(cardId, suffix), body, idem());
      expect([other.status, other.json.code], suffix).toEqual([409, "CARD_RECORD_CONFLICT"]);
    }
    expect(await counted(cardId, "card.frozen")).toEqual([0, 0]);
    expect(await applied(cardId, "set_card_status")).toHaveLength(1);
    expect(await intentsOf(cardId)).toHaveLength(1);

    expect(await reconcile()).toMatchObject({ settled: 1, gaveUp: 0, errors: [] });
    const settled = await freeze.send();
    expect([settled.status, settled.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(settled.json).toMatchObject({ cardId, status: "frozen", statusReason: "777.77 lost card", pendingUpdate: null });
    expect(await counted(cardId, "card.frozen")).toEqual([1, 1]);
    expect((await eventsOf(server, cardId, "card.frozen"))[0]?.data).toEqual(settled.json);
    expect(await applied(cardId, "set_card_status")).toHaveLength(1);
    expect([await intentsOf(cardId), (await reconcile()).claimed]).toEqual([[], 0]);
    // Settled: it takes changes again.
    expect((await call("POST", cardPath(cardId, "/unfreeze"), {}, idem())).status).toBe(200);
  });

  it("limits, perAuthorization 778.88: 202 with the new limits pending, never applied: the previous limits back, no event, the key replays 502", async () => {
    const { cardId, change } = await card();
    const limits = change("/limits", { limits: { perAuthorization: "778.88" } });
    const first = await limits.send();
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({ limits: { perAuthorization: "778.88" }, pendingUpdate: { type: "limits" } });
    expect(await applied(cardId, "set_card_limits")).toHaveLength(0);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await limits.send();
    expect([settled.status, settled.json.code]).toEqual([502, "PROVIDER_EXECUTION_FAILED"]);
    expect(settled.json.detail ?? settled.json.message).toMatch(/never applied this change.*previous limits/);
    const now = (await call("GET", cardPath(cardId))).json;
    expect(now).toMatchObject({ limits: LIMITS, pendingUpdate: null, status: "active" });
    expect(await counted(cardId, "card.limits_updated")).toEqual([0, 0]);
    expect([await intentsOf(cardId), (await reconcile()).claimed]).toEqual([[], 0]);
  });

  it("deactivate, reason 778.88: 202 deactivated, never applied: active again, no event", async () => {
    const { cardId, change } = await card();
    const deactivate = change("/deactivate", { reason: "778.88 rehearsal" });
    const first = await deactivate.send();
    expect([first.status, first.json.status], first.text).toEqual([202, "deactivated"]);
    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    expect((await deactivate.send()).status).toBe(502);
    expect((await call("GET", cardPath(cardId))).json).toMatchObject({ status: "active", statusReason: null, pendingUpdate: null });
    expect(await counted(cardId, "card.deactivated")).toEqual([0, 0]);
    expect(await applied(cardId, "set_card_status")).toHaveLength(0);
  });

  it("limits, perAuthorization 779.99: the issuer answers after 3 s, within the provider timeout: 200, nothing pending", async () => {
    const { cardId, change } = await card();
    const started = Date.now();
    const res = await change("/limits", { limits: { perAuthorization: "779.99" } }).send();
    expect(res.status, res.text).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(res.json).toMatchObject({ limits: { perAuthorization: "779.99" }, pendingUpdate: null });
    expect([await intentsOf(cardId), await counted(cardId, "card.limits_updated")]).toEqual([[], [1, 1]]);
  });

  it("a refusal stays as before: 502, the card as it was, no intent, nothing pending", async () => {
    const { cardId } = await card();
    const before = (await call("GET", cardPath(cardId))).json;
    const res = await call("POST", cardPath(cardId, "/freeze"), {}, { ...idem(), "sandbox-simulate-error": "PROVIDER_EXECUTION_FAILED" });
    expect(res.status).toBe(502);
    expect((await call("GET", cardPath(cardId))).json).toEqual(before);
    expect(await intentsOf(cardId)).toEqual([]);
  });
});

describe("the reconciler, the issuer unable to answer until its last attempt", () => {
  const giveUp = async (cardId: string, handler: IntentHandler) =>
    reconcileUntilGiveUp(server.db.kysely, {
      handler,
      resourceId: cardId,
      providerError: "the issuer is down",
      reconcileAfterSeconds: AFTER,
    });

  it("a freeze stands (protective), with card.frozen once; the key replays 200", async () => {
    const { cardId, change } = await card();
    const freeze = change("/freeze", { reason: "777.77 stolen" });
    expect((await freeze.send()).status).toBe(202);
    await giveUp(cardId, cardStatusHandler as IntentHandler);
    const settled = await freeze.send();
    expect([settled.status, settled.json.status, settled.json.pendingUpdate]).toEqual([200, "frozen", null]);
    expect(await counted(cardId, "card.frozen")).toEqual([1, 1]);
  });

  it("an unfreeze and a limits change are put back; the key replays 502 naming the issuer's last error", async () => {
    const { cardId, change } = await card();
    expect((await call("POST", cardPath(cardId, "/freeze"), { reason: "paused" }, idem())).status).toBe(200);
    const unfreeze = change("/unfreeze", { reason: "777.77 found it" });
    expect((await unfreeze.send()).status).toBe(202);
    await giveUp(cardId, cardStatusHandler as IntentHandler);
    const settled = await unfreeze.send();
    expect([settled.status, settled.json.code]).toEqual([502, "PROVIDER_EXECUTION_FAILED"]);
    expect(settled.json.detail ?? settled.json.message).toMatch(/could not confirm.*the issuer is down/);
    expect((await call("GET", cardPath(cardId))).json).toMatchObject({ status: "frozen", statusReason: "paused", pendingUpdate: null });
    expect(await counted(cardId, "card.unfrozen")).toEqual([0, 0]);

    const limits = change("/limits", { limits: { perAuthorization: "777.77" } });
    expect((await limits.send()).status).toBe(202);
    await giveUp(cardId, cardLimitsHandler as IntentHandler);
    expect((await limits.send()).status).toBe(502);
    expect((await call("GET", cardPath(cardId))).json).toMatchObject({ limits: LIMITS, pendingUpdate: null });
  });
});

describe("check:invariants", () => {
  it("finds nothing once every change is settled; names a card whose pending change nothing settles", async () => {
    const options = { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 };
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
    const { cardId } = await card();
    const stranded = { type: "limits", reference: `${cardId}:req_lost`, requestedAt: new Date().toISOString(), previous: { limits: {} } };
    await server.db.kysely
      .updateTable("Card")
      .set({ pendingUpdate: JSON.stringify(stranded) })
      .where("id", "=", cardId)
      .execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      {
        check: "state_without_event",
        id: cardId,
        detail: "a limits change pending with no open intent: nothing will confirm it or put the card back",
      },
    ]);
    await server.db.kysely.updateTable("Card").set({ pendingUpdate: null }).where("id", "=", cardId).execute();
  });
});
