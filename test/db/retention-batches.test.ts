// Retention purges delete in bounded batches (server/db/purge-in-batches.ts): no statement deletes more than
// RETENTION_BATCH_SIZE rows, the purge goes on until a batch comes back short, live rows stay, and a batch of the default
// size holds its locks briefly (its statement's time, the median under 100 ms on PostgreSQL). Runs on PGlite and PostgreSQL.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { DEFAULT_RETENTION_BATCHES, purgeInBatches } from "../../server/db/purge-in-batches.ts";
import { purgeOldEvents } from "../../server/domain/events/purge-old-events.ts";
import { purgeExpiredIdempotencyRecords } from "../../server/idempotency/idempotency-store.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;
let testDb: TestDatabase;
let db: Database;
const NOW = new Date("2026-11-25T12:00:00Z");

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

/** `n` idempotency records expiring `offsetMs` from NOW, inserted by one statement. */
async function idempotencyRecords(n: number, offsetMs: number, prefix: string): Promise<void> {
  await sql`INSERT INTO "IdempotencyRecord" (id, "organizationId", "apiKeyId", method, path, key, fingerprint, state, "lockToken",
      "lockedUntil", "expiresAt")
    SELECT ${prefix} || g, 'org_ret', 'key_ret', 'POST', '/x', ${prefix} || g, 'f', 'completed', 't', ${NOW}::timestamptz,
      ${new Date(NOW.getTime() + offsetMs)}::timestamptz
    FROM generate_series(1, ${n}) AS g`.execute(db.kysely);
}

describe("purgeInBatches", () => {
  it("stops at the first short batch and pauses between full ones", async () => {
    const sizes = [3, 3, 1];
    const calls: number[] = [];
    const started = Date.now();
    const total = await purgeInBatches(
      async (limit) => {
        calls.push(limit);
        return sizes.shift() ?? 0;
      },
      { batchSize: 3, pauseMs: 30 },
    );
    expect(total).toBe(7);
    expect(calls).toEqual([3, 3, 3]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe("idempotency records", () => {
  it("2,500 expired records go in batches of at most 1,000; unexpired ones stay", async () => {
    await idempotencyRecords(2_500, -3_600_000, "old_");
    await idempotencyRecords(10, 3_600_000, "live_");
    const batches: number[] = [];
    const ms: number[] = [];
    const purged = await purgeExpiredIdempotencyRecords(db.kysely, NOW, { batchSize: 1_000, pauseMs: 0 }, (deleted, took) => {
      batches.push(deleted);
      ms.push(took);
    });
    expect(purged).toBe(2_500);
    expect(batches).toEqual([1_000, 1_000, 500]);
    const left = await db.kysely.selectFrom("IdempotencyRecord").select("id").where("organizationId", "=", "org_ret").execute();
    expect(left.map((r) => r.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `live_${i + 1}`).sort());
    // A batch of the default size is one short statement: the locks it takes last as long as it runs. Timed on
    // PostgreSQL only (PGlite runs in this process, on a loaded machine's shared core).
    expect(DEFAULT_RETENTION_BATCHES.batchSize).toBe(1_000);
    if (onPostgres) expect([...ms].sort((a, b) => a - b)[1]).toBeLessThan(100);
  });
});

describe("events", () => {
  it("1,200 old events without deliveries go in batches of at most 500", async () => {
    const old = new Date(NOW.getTime() - 40 * 86_400_000);
    await sql`INSERT INTO "Event" (id, "organizationId", environment, type, "resourceId", data, "createdAt")
      SELECT 'evt_old_' || g, 'org_ret', 'sandbox', 'wallet.created', 'wal_x', '{}', ${old}::timestamptz
      FROM generate_series(1, 1200) AS g`.execute(db.kysely);
    await sql`INSERT INTO "Event" (id, "organizationId", environment, type, "resourceId", data, "createdAt")
      VALUES ('evt_recent', 'org_ret', 'sandbox', 'wallet.created', 'wal_x', '{}', ${NOW}::timestamptz)`.execute(db.kysely);
    const batches: number[] = [];
    const purged = await purgeOldEvents(db.kysely, {
      now: NOW,
      retentionDays: 30,
      batches: { batchSize: 500, pauseMs: 0 },
      onBatch: (deleted) => batches.push(deleted),
    });
    expect(purged).toEqual({ deliveries: 0, events: 1_200 });
    // The deliveries' pass (nothing to delete), then the events'.
    expect(batches).toEqual([0, 500, 500, 200]);
    const left = await db.kysely.selectFrom("Event").select("id").where("organizationId", "=", "org_ret").execute();
    expect(left).toEqual([{ id: "evt_recent" }]);
  });
});
