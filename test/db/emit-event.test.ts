// The outbox's fan-out on both databases: the Event row and one WebhookDelivery per subscribed enabled endpoint land in
// the unit of work's closing statement (an INSERT … SELECT as a data-modifying CTE), and nothing when the work fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { runUnitOfWork } from "../../server/db/unit-of-work/index.ts";
import { emitEvent } from "../../server/domain/events/emit-event.ts";
import { ServiceError } from "../../server/errors/service-error.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;
const ORG = "org_emit";
const now = new Date("2026-03-01T10:00:00.123Z");

async function endpoint(
  id: string,
  enabledEvents: string[],
  extra: { status?: string; organizationId?: string; environment?: string } = {},
) {
  await db.kysely
    .insertInto("WebhookEndpoint")
    .values({
      id,
      organizationId: extra.organizationId ?? ORG,
      environment: extra.environment ?? "sandbox",
      url: "http://127.0.0.1:1/hook",
      enabledEvents,
      status: extra.status ?? "enabled",
      secretSealed: "sealed",
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

const options = () => ({
  db: db.kysely,
  ttlHours: 1,
  lockSeconds: 5,
  renderError: () => ({ contentType: "application/json", body: {} }),
  now: () => now,
});

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await endpoint("we_all", ["*"]);
  await endpoint("we_bt", ["bank_transfer.created", "bank_transfer.completed"]);
  await endpoint("we_other", ["card.issued"]);
  await endpoint("we_disabled", ["*"], { status: "disabled" });
  await endpoint("we_prod", ["*"], { environment: "production" });
  await endpoint("we_org2", ["*"], { organizationId: "org_emit_2" });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe("emitEvent", () => {
  it("writes the event and one pending delivery per subscribed enabled endpoint of the org and environment, at commit", async () => {
    let eventId = "";
    const data = { id: "bt_1", status: "pending", amount: { value: "10.00", currency: "EUR" }, tags: ["a"] };
    await runUnitOfWork(options(), async (uow) => {
      eventId = emitEvent(uow, {
        organizationId: ORG,
        environment: "sandbox",
        type: "bank_transfer.created",
        resourceId: "bt_1",
        data,
        simulated: true,
      }).id;
      return { status: 201, body: {} };
    });
    const event = await db.kysely.selectFrom("Event").selectAll().where("id", "=", eventId).executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      organizationId: ORG,
      environment: "sandbox",
      type: "bank_transfer.created",
      resourceId: "bt_1",
      simulated: true,
    });
    expect(event.data).toEqual(data);
    const createdAt = new Date(event.createdAt as unknown as string);
    expect(createdAt.getTime()).toBeGreaterThanOrEqual(now.getTime());
    const deliveries = await db.kysely
      .selectFrom("WebhookDelivery")
      .selectAll()
      .where("eventId", "=", eventId)
      .orderBy("endpointId")
      .execute();
    expect(deliveries.map((d) => d.endpointId)).toEqual(["we_all", "we_bt"]);
    for (const d of deliveries) {
      expect(d).toMatchObject({
        organizationId: ORG,
        environment: "sandbox",
        eventType: "bank_transfer.created",
        status: "pending",
        attemptCount: 0,
      });
      expect(d.id).toMatch(/^wdl_[0-9a-f]{22}$/);
      expect(new Date(d.nextAttemptAt as unknown as string).toISOString()).toBe(createdAt.toISOString());
    }
  });

  it("onlyEndpointId: delivers to that endpoint only, whatever its enabled events", async () => {
    let eventId = "";
    await runUnitOfWork(options(), async (uow) => {
      eventId = emitEvent(uow, {
        organizationId: ORG,
        environment: "sandbox",
        type: "webhook_endpoint.tested",
        resourceId: "we_other",
        data: {},
        onlyEndpointId: "we_other",
      }).id;
      return { status: 202, body: {} };
    });
    const deliveries = await db.kysely.selectFrom("WebhookDelivery").select("endpointId").where("eventId", "=", eventId).execute();
    expect(deliveries.map((d) => d.endpointId)).toEqual(["we_other"]);
  });

  it("several events in one unit of work: strictly increasing createdAt (their order), each with its own deliveries; a business error writes none", async () => {
    const ids: string[] = [];
    await runUnitOfWork(options(), async (uow) => {
      for (const type of ["bank_transfer.created", "bank_transfer.completed", "card.issued"] as const) {
        ids.push(emitEvent(uow, { organizationId: ORG, environment: "sandbox", type, resourceId: "r", data: { type } }).id);
      }
      return { status: 200, body: {} };
    });
    const counts = await Promise.all(
      ids.map(
        async (id) => (await db.kysely.selectFrom("WebhookDelivery").select("endpointId").where("eventId", "=", id).execute()).length,
      ),
    );
    expect(counts).toEqual([2, 2, 2]);
    const times = await db.kysely.selectFrom("Event").select(["id", "createdAt"]).where("id", "in", ids).execute();
    const at = (id: string) => new Date(times.find((t) => t.id === id)?.createdAt as unknown as string).getTime();
    expect(at(ids[0] as string)).toBeLessThan(at(ids[1] as string));
    expect(at(ids[1] as string)).toBeLessThan(at(ids[2] as string));

    let failedId = "";
    await expect(
      runUnitOfWork(options(), async (uow) => {
        failedId = emitEvent(uow, {
          organizationId: ORG,
          environment: "sandbox",
          type: "bank_transfer.created",
          resourceId: "r",
          data: {},
        }).id;
        throw new ServiceError("VALIDATION_ERROR", "no");
      }),
    ).rejects.toThrow();
    expect(await db.kysely.selectFrom("Event").select("id").where("id", "=", failedId).execute()).toEqual([]);
    expect(await db.kysely.selectFrom("WebhookDelivery").select("id").where("eventId", "=", failedId).execute()).toEqual([]);
  });
});
