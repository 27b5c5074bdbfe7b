// API keys' spends past 24 hours are purged in batches (they no longer count against a limit); recent ones stay. Runs on
// PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { purgeOldSpends } from "../../server/domain/spending-limits/purge-old-spends.ts";
import { newId } from "../../server/lib/ids.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;
const NOW = new Date("2026-12-06T12:00:00Z");
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000);

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

const spend = (createdAt: Date) => ({
  id: newId("spend"),
  apiKeyId: "key_purge",
  asset: "USDC",
  amount: "1",
  idempotencyKey: null,
  createdAt,
});

describe("purgeOldSpends", () => {
  it("deletes every spend older than 24 h, batch by batch, and keeps the last 24 h", async () => {
    const old = Array.from({ length: 7 }, (_, i) => spend(hoursAgo(24 + i + 0.5)));
    const recent = [spend(hoursAgo(23.9)), spend(hoursAgo(1))];
    await db.kysely
      .insertInto("ApiKeySpend")
      .values([...old, ...recent])
      .execute();
    // A batch of 3: three full batches and a short one.
    expect(await purgeOldSpends(db.kysely, { now: NOW, batches: { batchSize: 3, pauseMs: 0 } })).toMatchObject({ rows: 7, batches: 3 });
    const left = await db.kysely.selectFrom("ApiKeySpend").select("id").execute();
    expect(left.map((r) => r.id).sort()).toEqual(recent.map((r) => r.id).sort());
    expect(await purgeOldSpends(db.kysely, { now: NOW })).toMatchObject({ rows: 0 });
  });
});
