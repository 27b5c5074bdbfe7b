// The request path's PostgreSQL driver (server/db/pg-pool-driver.ts) keeps what Kysely's own driver did, with fewer
// promises: each checkout's pool wait observed, a COMMIT that PostgreSQL answers ROLLBACK refused, an unanswered
// statement's connection dropped, the results Kysely expects (affected rows of a write, none of a read).
import { AbortedTransactionError, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/direct-statements.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;

describe.runIf(onPostgres)("the request path's PostgreSQL driver", () => {
  let testDb: TestDatabase;
  let db: Database;
  const waits: number[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrated: true });
    db = await openDatabase({
      url: testDb.url,
      poolSize: 2,
      timeouts: { queryTimeoutMs: 300 },
      onPoolWait: (seconds) => waits.push(seconds),
    });
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it("observes the pool wait of every checkout, a statement's alone and a transaction's", async () => {
    const before = waits.length;
    await db.kysely.selectFrom("Organization").select("id").execute();
    expect(waits.length - before).toBe(1);
    await inTransaction(db.kysely, async (tx) => {
      await tx.insertInto("Organization").values({ id: "org_driver_wait" }).execute();
      await tx.selectFrom("Organization").select("id").execute();
    });
    expect(waits.length - before).toBe(2);
    expect(waits.slice(before).every((seconds) => seconds >= 0 && seconds < 5)).toBe(true);
  });

  it("answers a write with its affected rows and a read with its rows", async () => {
    const inserted = await db.kysely
      .insertInto("Organization")
      .values([{ id: "org_driver_a" }, { id: "org_driver_b" }])
      .executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n);
    const deleted = await db.kysely.deleteFrom("Organization").where("id", "=", "org_driver_b").executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
    expect(await db.kysely.selectFrom("Organization").select("id").where("id", "in", ["org_driver_a", "org_driver_b"]).execute()).toEqual([
      { id: "org_driver_a" },
    ]);
  });

  it("refuses a COMMIT that PostgreSQL answered ROLLBACK, and the transaction's writes are gone", async () => {
    const committed = inTransaction(db.kysely, async (tx) => {
      await tx.insertInto("Organization").values({ id: "org_driver_aborted" }).execute();
      // A failed statement aborts the transaction; the work goes on as if it had not noticed.
      await sql`SELECT 1 / 0`.execute(tx).catch(() => {});
    });
    await expect(committed).rejects.toBeInstanceOf(AbortedTransactionError);
    expect(await db.kysely.selectFrom("Organization").select("id").where("id", "=", "org_driver_aborted").execute()).toEqual([]);
  });

  it("drops the connection of a statement that went unanswered, and the next statement gets a fresh one", async () => {
    const backend = async () => (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db.kysely)).rows[0]?.pid;
    await expect(sql`SELECT pg_sleep(2)`.execute(db.kysely)).rejects.toThrow("Query read timeout");
    // The timed-out client is destroyed at release (the pool would otherwise hand out a connection still busy with the
    // sleep): every checkout from here on gets a connection that answers at once.
    const started = performance.now();
    for (let i = 0; i < 3; i++) expect(await backend()).toEqual(expect.any(Number));
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
