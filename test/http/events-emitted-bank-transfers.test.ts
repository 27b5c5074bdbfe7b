// Events of bank transfers (issue 16): each state change writes exactly one event, in the transaction that makes it,
// whose data is the transfer as POST bank-transfer/status answers it at that moment. Concurrent retries of one create
// (same Idempotency-Key) and concurrent status refreshes emit once per change; a refused change emits nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsOf, eventTypesOf, expectOneEvent } from "../helpers/events.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_evt_bt";
const CREATE = "/api/v2/agent/payments/bank-transfer";
const STATUS = "/api/v2/agent/payments/bank-transfer/status";
const CANCEL = "/api/v2/agent/payments/bank-transfer/cancel";

const sepa = (overrides: Record<string, unknown> = {}) => ({
  amount: "1250.00",
  currency: "EUR",
  source: { type: "iban", iban: "DE89370400440532013000", bic: "COBADEFFXXX", accountHolderName: "Acme Trading GmbH", country: "DE" },
  destination: { type: "iban", iban: "FR1420041010050500013M02606", accountHolderName: "Dupont Fournitures SARL", country: "FR" },
  rail: "sepa",
  reference: "INV-2026-0042",
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
  ...overrides,
});
const lookup = (transferId: string) => ({ transferId, senderJurisdiction: "DE", receiverJurisdiction: "FR" });

let server: TestServer;
let call: ReturnType<typeof api>;

async function create(overrides: Record<string, unknown> = {}) {
  const res = await call("POST", CREATE, sepa(overrides), idem());
  expect(res.status, res.text).toBe(201);
  return res.json;
}
async function status(id: string) {
  const res = await call("POST", STATUS, lookup(id));
  expect(res.status, res.text).toBe(200);
  return res.json;
}

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["payments:write"] })).key);
});
afterAll(() => server?.close());

describe("bank transfer events", () => {
  it("created → submitted → completed: one event each, data = the transfer as answered at that moment", async () => {
    const created = await create();
    await expectOneEvent(server, "bank_transfer.created", created.id, created, {
      simulated: true,
      organizationId: ORG,
      environment: "sandbox",
    });
    const processing = await status(created.id);
    expect(processing.status).toBe("processing");
    await expectOneEvent(server, "bank_transfer.submitted", created.id, processing, { simulated: true });
    const completed = await status(created.id);
    expect(completed.status).toBe("completed");
    await expectOneEvent(server, "bank_transfer.completed", created.id, completed, { simulated: true });
    // A read of a final transfer changes nothing and emits nothing; it answers what the last event carried.
    expect(await status(created.id)).toEqual(completed);
    expect(await eventTypesOf(server, created.id)).toEqual(["bank_transfer.created", "bank_transfer.submitted", "bank_transfer.completed"]);
  });

  it.each([
    ["13.13", "failed", "bank_transfer.failed"],
    ["14.14", "returned", "bank_transfer.returned"],
  ])("amount %s ends %s → %s once", async (amount, final, type) => {
    const created = await create({ amount });
    await status(created.id);
    const ended = await status(created.id);
    expect(ended.status).toBe(final);
    await expectOneEvent(server, type, created.id, ended);
    expect(await status(created.id)).toEqual(ended);
  });

  it("cancel → bank_transfer.cancelled with the cancelled transfer; a refused second cancel (409) emits nothing", async () => {
    const created = await create();
    const res = await call("POST", CANCEL, lookup(created.id), idem());
    expect(res.status, res.text).toBe(200);
    await expectOneEvent(server, "bank_transfer.cancelled", created.id, res.json);
    expect(await status(created.id)).toEqual(res.json);
    const again = await call("POST", CANCEL, lookup(created.id), idem());
    expect(again.status).toBe(409);
    expect(await eventTypesOf(server, created.id)).toEqual(["bank_transfer.created", "bank_transfer.cancelled"]);
  });

  it("a create the provider fails (TIMEOUT reference: the intent is compensated) leaves no transfer and no event", async () => {
    const before = await server.db.kysely.selectFrom("Event").select("id").where("organizationId", "=", ORG).execute();
    const res = await call("POST", CREATE, sepa({ reference: "TIMEOUT-evt" }), idem());
    expect(res.status).toBeGreaterThanOrEqual(400);
    const after = await server.db.kysely.selectFrom("Event").select("id").where("organizationId", "=", ORG).execute();
    expect(after).toHaveLength(before.length);
  });

  it("50 concurrent identical creates (same Idempotency-Key): one transfer, one bank_transfer.created", async () => {
    const org = "org_evt_bt_concurrent";
    const racer = api(server.url, (await server.createKey({ organizationId: org, scopes: ["payments:write"] })).key);
    const headers = idem();
    const answers = await Promise.all(Array.from({ length: 50 }, () => racer("POST", CREATE, sepa(), headers)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.json.id)).size).toBe(1);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    // Settle the stragglers: the key's stored answer.
    const replay = await racer("POST", CREATE, sepa(), headers);
    expect(replay.status).toBe(201);
    const events = await server.db.kysely.selectFrom("Event").selectAll().where("organizationId", "=", org).execute();
    expect(events.map((e) => [e.type, e.resourceId])).toEqual([["bank_transfer.created", replay.json.id]]);
    expect(events[0]?.data).toEqual(replay.json);
  });

  it("concurrent status reads: one event per transition the transfer went through", async () => {
    const created = await create();
    const reads = await Promise.all(Array.from({ length: 12 }, () => call("POST", STATUS, lookup(created.id))));
    expect(reads.every((r) => r.status === 200)).toBe(true);
    const final = await status(created.id); // settles any move left; may move it once more
    const history = (final.statusHistory as { status: string }[]).map((h) => h.status);
    const expected = history.map((s) =>
      s === "pending" ? "bank_transfer.created" : s === "processing" ? "bank_transfer.submitted" : `bank_transfer.${s}`,
    );
    expect(await eventTypesOf(server, created.id)).toEqual(expected);
    expect(history.length).toBeGreaterThanOrEqual(2);
    const events = await eventsOf(server, created.id);
    expect(events.at(-1)?.data).toEqual(final);
  });
});
