// Events of the v1 sandbox (issue 16): wallet.created and payment.created, once each, with the resource as its GET
// answers it; an idempotent replay or a refused request emits nothing more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsOf, expectOneEvent } from "../helpers/events.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_evt_v1";
const TO = "0x52908400098527886E0F7030069857D2E4169EE7";
let server: TestServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write", "payments:write"] })).key);
});
afterAll(() => server?.close());

describe("v1 events", () => {
  it("wallet.created = GET /api/v1/wallets/{id}", async () => {
    const created = await call("POST", "/api/v1/wallets", { chain: "base", label: "events" });
    expect(created.status, created.text).toBe(201);
    const got = await call("GET", `/api/v1/wallets/${created.json.id}`);
    expect(got.json).toEqual(created.json);
    await expectOneEvent(server, "wallet.created", created.json.id, got.json, {
      simulated: true,
      organizationId: ORG,
      environment: "sandbox",
    });
  });

  it("payment.created = GET /api/v1/payments/{id}; a replay of its Idempotency-Key and a 400 emit nothing", async () => {
    const headers = idem();
    const body = { amount: "12.50", stablecoin: "USDC", chain: "base", toAddress: TO };
    const created = await call("POST", "/api/v1/payments", body, headers);
    expect(created.status, created.text).toBe(201);
    const got = await call("GET", `/api/v1/payments/${created.json.id}`);
    await expectOneEvent(server, "payment.created", created.json.id, got.json, { simulated: true });
    expect((await call("POST", "/api/v1/payments", body, headers)).headers.get("idempotent-replayed")).toBe("true");
    expect(await eventsOf(server, created.json.id)).toHaveLength(1);
    const before = await server.db.kysely.selectFrom("Event").select("id").where("organizationId", "=", ORG).execute();
    expect((await call("POST", "/api/v1/payments", { ...body, amount: "0" }, idem())).status).toBe(400);
    const after = await server.db.kysely.selectFrom("Event").select("id").where("organizationId", "=", ORG).execute();
    expect(after).toHaveLength(before.length);
  });
});
