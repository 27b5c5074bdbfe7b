// Statements and transactions past Kysely's executor (server/db/direct-statements.ts), on both databases: a
// transaction commits, rolls back on a failed work or COMMIT, gives its connection back, runs statements sent together
// one at a time in the order sent, and refuses a statement sent after it ended — what Kysely's own executor guaranteed;
// on a Kysely it did not make, Kysely's own transaction runs the work.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/direct-statements.ts";
import type { Queryable, Tx } from "../../server/db/kysely.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { statementsSentDuring } from "../helpers/statements-sent.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  // Two connections on PostgreSQL, one session on PGlite: a connection not given back stalls the next test.
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await db.kysely.insertInto("Organization").values({ id: "org_direct" }).execute();
  await sql`CREATE TABLE direct_deferred (id int, CONSTRAINT direct_deferred_once UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)`.execute(
    db.kysely,
  );
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

const activity = (id: string) => ({
  id,
  organizationId: "org_direct",
  environment: "sandbox",
  type: "direct.test",
  resourceId: id,
  createdAt: new Date(),
});
const insertActivity = (q: Queryable, id: string) => q.insertInto("ActivityEvent").values(activity(id)).execute();
const activityIds = async (prefix: string, q = db.kysely) =>
  (await q.selectFrom("ActivityEvent").select("id").where("id", "like", `${prefix}%`).orderBy("id").execute()).map((r) => r.id);

/** BEGIN/COMMIT/ROLLBACK sent while `work` runs. */
const transactionControlSent = async (work: () => Promise<unknown>) => (await statementsSentDuring(db.statements, work)).transactionControl;

describe("inTransaction past Kysely's executor", () => {
  it("commits the work's writes and answers the work's result", async () => {
    const result = await inTransaction(db.kysely, async (tx) => {
      await insertActivity(tx, "dx_commit_1");
      await insertActivity(tx, "dx_commit_2");
      return "done";
    });
    expect(result).toBe("done");
    expect(await activityIds("dx_commit_")).toEqual(["dx_commit_1", "dx_commit_2"]);
  });

  it("rolls the work back when it throws, passes its error on and gives the connection back", async () => {
    const boom = new Error("the work failed");
    await expect(
      inTransaction(db.kysely, async (tx) => {
        await insertActivity(tx, "dx_rollback_1");
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await activityIds("dx_rollback_")).toEqual([]);
    // More transactions than the pool has connections, one after the other: each finds one free.
    for (let i = 0; i < 3; i++) await inTransaction(db.kysely, (tx) => insertActivity(tx, `dx_after_rollback_${i}`));
    expect(await activityIds("dx_after_rollback_")).toHaveLength(3);
    // Had the work's transaction been left open on its connection, a later COMMIT there would have written its row.
    expect(await activityIds("dx_rollback_")).toEqual([]);
  });

  it("rolls back when COMMIT fails (a deferred constraint) and passes the database's error on", async () => {
    await expect(
      inTransaction(db.kysely, async (tx) => {
        await sql`INSERT INTO direct_deferred (id) VALUES (1), (1)`.execute(tx);
        await insertActivity(tx, "dx_commit_failed_1");
      }),
    ).rejects.toThrow(/direct_deferred_once/);
    expect(await activityIds("dx_commit_failed_")).toEqual([]);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM direct_deferred`.execute(db.kysely);
    expect(rows[0]?.n).toBe(0);
    await inTransaction(db.kysely, (tx) => insertActivity(tx, "dx_after_commit_failed"));
    expect(await activityIds("dx_after_commit_failed")).toHaveLength(1);
  });

  it("runs statements sent together one at a time, in the order sent (one BEGIN, a read sees the write before it)", async () => {
    let seen: string[] = [];
    const control = await transactionControlSent(() =>
      inTransaction(db.kysely, async (tx) => {
        // A plain read first (no BEGIN yet), then two writes and a read of them, all sent before any answers: the first
        // write sends BEGIN, and what follows must wait for it rather than run outside the transaction or begin again.
        const [, , , ids] = await Promise.all([
          activityIds("dx_together_", tx),
          insertActivity(tx, "dx_together_1"),
          insertActivity(tx, "dx_together_2"),
          activityIds("dx_together_", tx),
        ]);
        seen = ids;
      }),
    );
    expect(seen).toEqual(["dx_together_1", "dx_together_2"]);
    expect(control).toBe(2); // BEGIN and COMMIT, once each
  });

  it("runs a query with a plugin (Kysely's own executor) on the same transaction, in order", async () => {
    let seen: string[] = [];
    const control = await transactionControlSent(() =>
      inTransaction(db.kysely, async (tx) => {
        // The write through the plugin is sent while the first write waits for its BEGIN: it must wait its turn too.
        const [, , ids] = await Promise.all([
          insertActivity(tx, "dx_plugin_1"),
          tx.withSchema("public").insertInto("ActivityEvent").values(activity("dx_plugin_2")).execute(),
          activityIds("dx_plugin_", tx.withSchema("public")),
        ]);
        seen = ids;
      }),
    );
    expect(seen).toEqual(["dx_plugin_1", "dx_plugin_2"]);
    expect(control).toBe(2);
  });

  it("refuses a statement sent after its transaction ended", async () => {
    let kept: Tx | undefined;
    await inTransaction(db.kysely, async (tx) => {
      kept = tx;
    });
    await expect(insertActivity(kept as Tx, "dx_late")).rejects.toThrow(/after its transaction had ended/);
    expect(await activityIds("dx_late")).toEqual([]);
  });

  it("runs the work in Kysely's own transaction on a Kysely that directKysely did not make", async () => {
    // withSchema gives a new Kysely over the same connections, one that direct-statements.ts holds no parts of.
    const other = db.kysely.withSchema("public");
    const kept = await inTransaction(other, async (tx) => {
      await insertActivity(tx, "dx_fallback_kept");
      return "kept";
    });
    expect(kept).toBe("kept");
    const boom = new Error("the work failed");
    await expect(
      inTransaction(other, async (tx) => {
        await insertActivity(tx, "dx_fallback_undone");
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await activityIds("dx_fallback_")).toEqual(["dx_fallback_kept"]);
  });

  it("shares the database's adapter with its transactions (the read cache is found by it)", async () => {
    await inTransaction(db.kysely, async (tx) => {
      expect(tx.getExecutor().adapter).toBe(db.kysely.getExecutor().adapter);
      expect(tx.isTransaction).toBe(true);
    });
  });
});

describe("a statement alone past Kysely's executor", () => {
  it("gives its connection back when it fails, and its error reaches the caller", async () => {
    await insertActivity(db.kysely, "dx_alone_1");
    for (let i = 0; i < 3; i++) {
      await expect(db.kysely.insertInto("ActivityEvent").values(activity("dx_alone_1")).execute()).rejects.toThrow(
        /duplicate key value violates unique constraint/,
      );
    }
    expect(await activityIds("dx_alone_")).toEqual(["dx_alone_1"]);
  });
});
