// The events API: list (newest first, cursor, filters by type and time range) and get, scoped to the key's
// organization and environment. Events come from the API (test events of an endpoint) and, where a test needs exact
// times, are written to the outbox table directly, as emitEvent would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../server/lib/ids.ts";
import { sampleEventData } from "../helpers/events.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const EVENTS = "/api/v2/agent/events";
const ORG = "org_events";

let server: TestServer;
let writer: ReturnType<typeof api>;
let reader: ReturnType<typeof api>;
let otherOrg: ReturnType<typeof api>;
let production: ReturnType<typeof api>;
let noWebhooks: ReturnType<typeof api>;
/** Stored events of ORG/sandbox, oldest first. */
const stored: Array<{ id: string; type: string; createdAt: Date }> = [];

async function storeEvent(
  type: string,
  createdAt: Date,
  scope: { organizationId?: string; environment?: string; resourceId?: string } = {},
) {
  const row = {
    id: newId("evt"),
    organizationId: scope.organizationId ?? ORG,
    environment: scope.environment ?? "sandbox",
    type,
    resourceId: scope.resourceId ?? "card_events",
    data: JSON.stringify(sampleEventData(type)),
    simulated: true,
    createdAt,
  };
  await server.db.kysely.insertInto("Event").values(row).execute();
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  const key = async (scopes: string[], options: { organizationId?: string; environment?: "sandbox" | "production" } = {}) =>
    api(server.url, (await server.createKey({ organizationId: ORG, scopes, ...options })).key);
  writer = await key(["webhooks:write"]);
  reader = await key(["webhooks:read"]);
  otherOrg = await key(["webhooks:read"], { organizationId: "org_events_other" });
  production = await key(["webhooks:read"], { environment: "production" });
  noWebhooks = await key(["cards:write"]);
  const base = Date.parse("2026-01-10T00:00:00.000Z");
  const types = ["card.issued", "card.frozen", "bank_transfer.completed", "card.issued", "bank_transfer.failed"];
  for (const [i, type] of types.entries()) {
    const row = await storeEvent(type, new Date(base + i * 60_000));
    stored.push({ id: row.id, type, createdAt: row.createdAt });
  }
  // Same times, other tenants: never listed for ORG/sandbox.
  await storeEvent("card.issued", new Date(base), { organizationId: "org_events_other" });
  await storeEvent("card.issued", new Date(base), { environment: "production" });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** Date-times carry `:`, which a query value must percent-encode (the SDK does). */
const enc = encodeURIComponent;
const ids = (res: { json: { data: Array<{ id: string }> } }) => res.json.data.map((e) => e.id);
const newestFirst = () => [...stored].reverse().map((e) => e.id);

function expectFieldError(res: { status: number; json: { code: string; errors?: Array<{ path: string }> } }, path: string) {
  expect(res.status).toBe(400);
  expect(res.json.code).toBe("VALIDATION_ERROR");
  expect(res.json.errors?.map((e) => e.path)).toContain(path);
}

describe("GET /events", () => {
  it("lists the organization's events of the key's environment, newest first, as envelopes", async () => {
    const res = await reader("GET", `${EVENTS}?limit=100`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(newestFirst());
    expect(res.json).toMatchObject({ hasMore: false, nextCursor: null });
    expect(res.json.data[0]).toEqual({
      id: stored[4]?.id,
      type: "bank_transfer.failed",
      createdAt: "2026-01-10T00:04:00.000Z",
      timestamp: "2026-01-10T00:04:00.000Z",
      organizationId: ORG,
      environment: "sandbox",
      simulated: true,
      data: sampleEventData("bank_transfer.failed"),
    });
  });

  it("pages with a cursor", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await reader(
        "GET",
        `${EVENTS}?limit=2&createdBefore=${enc("2026-01-11T00:00:00.000Z")}${cursor ? `&startingAfter=${cursor}` : ""}`,
      );
      expect(res.status).toBe(200);
      seen.push(...ids(res));
      cursor = res.json.nextCursor;
      expect(cursor).toBe(res.json.hasMore ? res.json.data.at(-1).id : null);
    } while (cursor);
    expect(seen).toEqual(newestFirst());
  });

  it("filters by one type, several types (repeated parameter), and a time range (exclusive)", async () => {
    const issued = stored.filter((e) => e.type === "card.issued").map((e) => e.id);
    expect(ids(await reader("GET", `${EVENTS}?type=card.issued`))).toEqual([...issued].reverse());
    const bank = stored.filter((e) => e.type.startsWith("bank_transfer.")).map((e) => e.id);
    expect(ids(await reader("GET", `${EVENTS}?type=bank_transfer.completed&type=bank_transfer.failed`))).toEqual([...bank].reverse());
    const range = await reader(
      "GET",
      `${EVENTS}?createdAfter=${enc("2026-01-10T00:01:00.000Z")}&createdBefore=${enc("2026-01-10T00:04:00.000Z")}`,
    );
    expect(ids(range)).toEqual([stored[3]?.id, stored[2]?.id]);
    const both = await reader(
      "GET",
      `${EVENTS}?type=card.issued&createdAfter=${enc("2026-01-10T00:00:00.000Z")}&createdBefore=${enc("2026-01-11T00:00:00.000Z")}`,
    );
    expect(ids(both)).toEqual([stored[3]?.id]);
  });

  it("filters by resource: one resource's events, newest first, with the other filters too, never another organization's", async () => {
    const at = Date.parse("2026-01-12T00:00:00.000Z");
    const first = await storeEvent("card.issued", new Date(at), { resourceId: "card_history" });
    const second = await storeEvent("card.frozen", new Date(at + 60_000), { resourceId: "card_history" });
    await storeEvent("card.issued", new Date(at), { resourceId: "card_history", organizationId: "org_events_other" });
    expect(ids(await reader("GET", `${EVENTS}?resourceId=card_history`))).toEqual([second.id, first.id]);
    expect(ids(await reader("GET", `${EVENTS}?resourceId=card_history&type=card.issued`))).toEqual([first.id]);
    expect(ids(await reader("GET", `${EVENTS}?resourceId=card_nothing`))).toEqual([]);
    expectFieldError(await reader("GET", `${EVENTS}?resourceId=${encodeURIComponent("card history")}`), "/query/resourceId");
  });

  it("refuses an unknown type, a bad date-time, a bad limit or a foreign cursor, naming the field", async () => {
    expectFieldError(await reader("GET", `${EVENTS}?type=bank_transfer.teleported`), "/query/type/0");
    expectFieldError(await reader("GET", `${EVENTS}?createdAfter=yesterday`), "/query/createdAfter");
    // Month 13 passes the format check; the server still refuses it (not a 500).
    expectFieldError(await reader("GET", `${EVENTS}?createdBefore=${enc("2026-13-01T00:00:00Z")}`), "/query/createdBefore");
    expectFieldError(await reader("GET", `${EVENTS}?createdAfter=2026-01-01T00:00:00Z`), "/query/createdAfter"); // `:` not encoded
    expectFieldError(await reader("GET", `${EVENTS}?limit=1000`), "/query/limit");
    expectFieldError(await reader("GET", `${EVENTS}?startingAfter=evt_notoneofours`), "/query/startingAfter");
    const foreign = (await otherOrg("GET", EVENTS)).json.data[0].id;
    expectFieldError(await reader("GET", `${EVENTS}?startingAfter=${foreign}`), "/query/startingAfter");
  });

  it("never shows another organization's or environment's events", async () => {
    const other = await otherOrg("GET", `${EVENTS}?limit=100`);
    expect(other.json.data.every((e: { organizationId: string }) => e.organizationId === "org_events_other")).toBe(true);
    const prod = await production("GET", `${EVENTS}?limit=100`);
    expect(prod.json.data).toHaveLength(1);
    expect(prod.json.data[0].environment).toBe("production");
    for (const id of newestFirst()) {
      expect(ids(other)).not.toContain(id);
      expect(ids(prod)).not.toContain(id);
    }
  });

  it("403 without a webhooks scope", async () => {
    expect((await noWebhooks("GET", EVENTS)).status).toBe(403);
    expect((await noWebhooks("GET", `${EVENTS}/${stored[0]?.id}`)).status).toBe(403);
  });
});

describe("GET /events/{eventId}", () => {
  it("returns the event as listed", async () => {
    const listed = (await reader("GET", `${EVENTS}?limit=100`)).json.data;
    for (const event of listed) expect((await reader("GET", `${EVENTS}/${event.id}`)).json).toEqual(event);
  });

  it("404 for another tenant's or an unknown event, whatever its form; 400 past 255 characters", async () => {
    const id = stored[0]?.id as string;
    expect((await otherOrg("GET", `${EVENTS}/${id}`)).status).toBe(404);
    expect((await production("GET", `${EVENTS}/${id}`)).status).toBe(404);
    expect((await reader("GET", `${EVENTS}/evt_unknown0000`)).status).toBe(404);
    expect((await reader("GET", `${EVENTS}/we_123`)).status).toBe(404);
    expectFieldError(await reader("GET", `${EVENTS}/${"e".repeat(256)}`), "/params/eventId");
  });

  it("lists an endpoint's test event (recorded through the API) at the head", async () => {
    const endpoint = await writer(
      "POST",
      "/api/v2/agent/webhook-endpoints",
      { url: "http://localhost:9/none", enabledEvents: ["card.issued"] },
      idem(),
    );
    const sent = await writer("POST", `/api/v2/agent/webhook-endpoints/${endpoint.json.id}/test`, undefined, idem());
    expect(sent.status).toBe(202);
    const head = await reader("GET", `${EVENTS}?limit=1`);
    expect(head.json.data).toEqual([sent.json]);
    expect(ids(await reader("GET", `${EVENTS}?type=webhook_endpoint.tested`))).toEqual([sent.json.id]);
    // A test event describes no change: simulated, whatever the environment.
    expect(sent.json.simulated).toBe(true);
  });
});
