// Event retention: old events and their finished deliveries go; a delivery still pending keeps its event; recent rows
// stay. Runs on PGlite and PostgreSQL (the NOT EXISTS and batched deletes are plain SQL on both).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { purgeOldEvents } from "../../server/domain/events/purge-old-events.ts";
import { newId } from "../../server/lib/ids.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;
const NOW = new Date("2026-11-25T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await db.kysely
    .insertInto("WebhookEndpoint")
    .values({
      id: "we_purge",
      organizationId: "org_purge",
      environment: "sandbox",
      url: "http://localhost/hook",
      description: null,
      enabledEvents: ["*"],
      status: "enabled",
      disabledReason: null,
      secretSealed: "v1.x.y.z",
      createdAt: daysAgo(60),
      updatedAt: daysAgo(60),
    })
    .execute();
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

async function event(ageDays: number, delivery?: "pending" | "succeeded" | "failed"): Promise<string> {
  const id = newId("evt");
  const createdAt = daysAgo(ageDays);
  await db.kysely
    .insertInto("Event")
    .values({
      id,
      organizationId: "org_purge",
      environment: "sandbox",
      type: "wallet.created",
      resourceId: "wal_x",
      data: "{}",
      simulated: null,
      createdAt,
    })
    .execute();
  if (delivery) {
    const deliveryId = newId("wdl");
    await db.kysely
      .insertInto("WebhookDelivery")
      .values({
        id: deliveryId,
        endpointId: "we_purge",
        eventId: id,
        organizationId: "org_purge",
        environment: "sandbox",
        eventType: "wallet.created",
        status: delivery,
        nextAttemptAt: delivery === "pending" ? NOW : null,
        createdAt,
      })
      .execute();
    await db.kysely
      .insertInto("WebhookDeliveryAttempt")
      .values({
        id: newId("wda"),
        deliveryId,
        attemptNumber: 1,
        attemptedAt: createdAt,
        durationMs: 5,
        httpStatus: 500,
        error: "http_error",
      })
      .execute();
  }
  return id;
}

const eventIds = async () => (await db.kysely.selectFrom("Event").select("id").execute()).map((r) => r.id).sort();

describe("purgeOldEvents", () => {
  it("deletes events past retention with their finished deliveries and attempts; keeps recent ones and those still pending", async () => {
    await event(40, "succeeded");
    await event(31, "failed");
    await event(45);
    const oldPending = await event(35, "pending");
    const recent = await event(29, "succeeded");
    const purged = await purgeOldEvents(db.kysely, { now: NOW, retentionDays: 30 });
    expect(purged).toMatchObject({ deliveries: 2, events: 3, rows: 5 });
    expect(await eventIds()).toEqual([oldPending, recent].sort());
    const attempts = await db.kysely.selectFrom("WebhookDeliveryAttempt").select("id").execute();
    expect(attempts).toHaveLength(2); // the pending delivery's and the recent one's
    expect(await purgeOldEvents(db.kysely, { now: NOW, retentionDays: 30 })).toMatchObject({ deliveries: 0, events: 0, rows: 0 });
  });
});
