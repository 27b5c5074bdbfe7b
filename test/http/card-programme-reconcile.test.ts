// Issue 26 for card programme creation, which carries no amount to rehearse a lost answer with: the states a crash
// between its two commits leaves (FAULT_INJECT crash-after-intent / crash-before-result; test/system covers the crash
// itself for fundCard) are set up here — the programme `pending` without its event, its intent open, its key in progress
// — and the reconciler (driven directly) settles it in one unit of work: `active` with its event and activity once when
// the simulated issuer's books hold its id, else `failed` with its test funds written back and no event; the key then
// replays the final answer. Also: a `pending` or `failed` programme is listed but issues no card.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardProgrammeCreateHandler } from "../../server/domain/cards/reconcile-card-programme.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { CARDS, type Call, checkLedgerInvariants, programmeBody } from "../helpers/cards.ts";
import { eventsOf } from "../helpers/events.ts";
import { intentsOnResource, reconcilePastDeadlines, reconcileUntilGiveUp } from "../helpers/reconcile.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_card_programme_reconcile";
const AFTER = 1;

let server: TestServer;
let call: Call;

const reconcile = () => reconcilePastDeadlines(server.db.kysely, AFTER);
const intentsOf = (id: string) => intentsOnResource(server.db.kysely, id);
const createdEvents = async (id: string) => (await eventsOf(server, id, "card_programme.created")).length;
const activities = (id: string) => server.db.kysely.selectFrom("ActivityEvent").select("id").where("resourceId", "=", id).execute();

/**
 * A programme created through the API, then put back in the state a crash between its commits leaves: `pending`, no
 * event or activity yet, its intent open (due, its request's lease over) and its key in progress. `executed`: whether the
 * issuer's books keep its creation (crash-before-result) or not (crash-after-intent: the issuer was never called).
 */
async function interrupted(executed: boolean) {
  const key = idem();
  const body = programmeBody();
  const create = () => call("POST", `${CARDS}/programmes`, body, key);
  const created = await create();
  expect(created.status, created.text).toBe(201);
  const id = created.json.programmeId as string;
  const db = server.db.kysely;
  await db.updateTable("CardProgramme").set({ status: "pending", providerReference: "" }).where("id", "=", id).execute();
  await db.deleteFrom("Event").where("resourceId", "=", id).execute();
  await db.deleteFrom("ActivityEvent").where("resourceId", "=", id).execute();
  if (!executed) await db.deleteFrom("SimCardIssuerCall").where("idempotencyKey", "=", id).execute();
  const past = new Date(Date.now() - 1_000);
  const record = await db
    .updateTable("IdempotencyRecord")
    .set({ state: "in_progress", lockedUntil: past, responseStatus: null, responseBody: null })
    .where("key", "=", key["idempotency-key"])
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("ProviderIntent")
    .values({
      id: `intent_${randomBytes(8).toString("hex")}`,
      family: "card_programme.create",
      resourceId: id,
      reference: id,
      organizationId: ORG,
      environment: "sandbox",
      idempotencyRecordId: record.id,
      dueAt: past,
      leaseToken: "the-dead-request",
      leaseUntil: past,
      createdAt: past,
    })
    .execute();
  return { id, create };
}

beforeAll(async () => {
  server = await startTestServer({ env: { RECONCILE_AFTER_SECONDS: String(AFTER) } });
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["cards:write"] })).key);
});
afterAll(() => server?.close());

describe("a programme whose request died between its commits", () => {
  it("after the issuer created it: 409 meanwhile, listed pending, no card under it; then active, its event once, the key replays 201", async () => {
    const { id, create } = await interrupted(true);
    const held = await create();
    expect([held.status, held.json.code]).toEqual([409, "IDEMPOTENCY_IN_PROGRESS"]);
    const listed = await call("GET", `${CARDS}/programmes`);
    expect(listed.json.data.find((p: { programmeId: string }) => p.programmeId === id)?.status).toBe("pending");
    expect((await call("POST", `${CARDS}/issue`, { programmeId: id }, idem())).status).toBe(404);

    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await create();
    expect([settled.status, settled.headers.get("idempotent-replayed"), settled.json.status]).toEqual([201, "true", "active"]);
    expect([await createdEvents(id), (await activities(id)).length]).toEqual([1, 1]);
    expect((await eventsOf(server, id, "card_programme.created"))[0]?.data).toEqual(settled.json);
    const row = await server.db.kysely.selectFrom("CardProgramme").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.providerReference).toMatch(/^sim_prg_/);
    expect(await intentsOf(id)).toHaveLength(0);
    expect((await reconcile()).claimed).toBe(0);
    expect((await call("POST", `${CARDS}/issue`, { programmeId: id }, idem())).status).toBe(201);
  });

  it("never created at the issuer: failed with its reason, its test funds written back, no event, the key replays 201 failed", async () => {
    const { id, create } = await interrupted(false);
    expect(await reconcile()).toMatchObject({ settled: 1, errors: [] });
    const settled = await create();
    expect([settled.status, settled.json.status]).toEqual([201, "failed"]);
    const row = await server.db.kysely.selectFrom("CardProgramme").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.failureReason).toMatch(/^not_executed: /);
    expect([await createdEvents(id), (await activities(id)).length]).toEqual([0, 0]);
    const accounts = await checkLedgerInvariants(server);
    expect(accounts.get(`${ORG}/sandbox/programme:${id}:funding`)).toBe(0n);
    expect((await call("POST", `${CARDS}/issue`, { programmeId: id }, idem())).status).toBe(404);
  });
});

describe("the reconciler", () => {
  it("backs off while the issuer cannot answer, then fails the programme `outcome_unconfirmed` after its last attempt", async () => {
    const { id, create } = await interrupted(true);
    await reconcileUntilGiveUp(server.db.kysely, {
      handler: cardProgrammeCreateHandler as IntentHandler,
      resourceId: id,
      providerError: "the issuer is down",
      reconcileAfterSeconds: AFTER,
    });
    expect((await create()).json.status).toBe("failed");
    const row = await server.db.kysely.selectFrom("CardProgramme").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.failureReason).toMatch(/^outcome_unconfirmed: .*the issuer is down/);
    expect(await createdEvents(id)).toBe(0);
  });
});

describe("check:invariants", () => {
  it("finds nothing once every programme is settled; names an active programme without its event and a pending one nothing settles", async () => {
    const options = { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 };
    expect(await checkInvariants(server.db.kysely, options)).toEqual([]);
    const created = await call("POST", `${CARDS}/programmes`, programmeBody(), idem());
    expect(created.status, created.text).toBe(201);
    const id = created.json.programmeId as string;
    await server.db.kysely.deleteFrom("Event").where("resourceId", "=", id).execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id, detail: "card_programme.created: 0 event(s), expected 1 (active)" },
    ]);
    await server.db.kysely.updateTable("CardProgramme").set({ status: "pending" }).where("id", "=", id).execute();
    expect(await checkInvariants(server.db.kysely, options)).toEqual([
      { check: "state_without_event", id, detail: "programme pending with no open intent: nothing will settle it" },
    ]);
  });
});
