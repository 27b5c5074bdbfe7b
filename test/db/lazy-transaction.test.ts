// Transactions begin lazily (server/db/lazy-transaction.ts): plain reads before the first write send no BEGIN, the
// first write does, and a final statement with nothing before it runs alone and atomically — on both databases.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPlainRead, markFinal } from "../../server/db/lazy-transaction.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { statementsSentDuring } from "../helpers/statements-sent.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await db.kysely.insertInto("Organization").values({ id: "org_lazy" }).execute();
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

/** BEGIN/COMMIT/ROLLBACK sent while `work` runs. `work` must succeed unless `rejection` names the error it must fail
 * with: a work that threw before sending anything would otherwise count as "sent no BEGIN". */
async function controlSent(
  work: () => Promise<unknown>,
  rejection?: RegExp,
): Promise<{ transactions: number; transactionControl: number }> {
  const { transactions, transactionControl } = await statementsSentDuring(
    db.statements,
    rejection ? () => expect(work()).rejects.toThrow(rejection) : work,
  );
  return { transactions, transactionControl };
}

/** The unique violation both databases report for a second row with the same id. */
const DUPLICATE = /duplicate key value violates unique constraint/;

const settingsOf = (q = db.kysely) => q.selectFrom("Organization").select("settings").where("id", "=", "org_lazy");
const activity = (id: string) => ({
  id,
  organizationId: "org_lazy",
  environment: "sandbox",
  type: "lazy.test",
  resourceId: id,
  createdAt: new Date(),
});
const activityRows = async (prefix: string) =>
  (await db.kysely.selectFrom("ActivityEvent").select("id").where("id", "like", `${prefix}%`).execute()).length;

describe("lazy transactions", () => {
  it("a transaction of plain reads sends no BEGIN and no COMMIT", async () => {
    const sent = await controlSent(() =>
      db.kysely.transaction().execute(async (tx) => {
        await settingsOf(tx).execute();
        await settingsOf(tx).execute();
      }),
    );
    expect(sent).toEqual({ transactions: 0, transactionControl: 0 });
  });

  it("the first write sends BEGIN; the work commits as one transaction", async () => {
    const sent = await controlSent(() =>
      db.kysely.transaction().execute(async (tx) => {
        await settingsOf(tx).execute();
        await tx.insertInto("ActivityEvent").values(activity("act_lazy_w1")).execute();
        await tx.insertInto("ActivityEvent").values(activity("act_lazy_w2")).execute();
      }),
    );
    expect(sent).toEqual({ transactions: 1, transactionControl: 2 });
    expect(await activityRows("act_lazy_w")).toBe(2);
  });

  it("a write that fails after an earlier write rolls the earlier one back", async () => {
    const sent = await controlSent(
      () =>
        db.kysely.transaction().execute(async (tx) => {
          await tx.insertInto("ActivityEvent").values(activity("act_lazy_rb")).execute();
          await tx.insertInto("ActivityEvent").values(activity("act_lazy_rb")).execute(); // duplicate id
        }),
      DUPLICATE,
    );
    expect(sent).toEqual({ transactions: 1, transactionControl: 2 });
    expect(await activityRows("act_lazy_rb")).toBe(0);
  });

  it.each([
    ["a locking read", (tx: typeof db.kysely) => settingsOf(tx).forUpdate().execute()],
    ["a raw SQL fragment", (tx: typeof db.kysely) => sql`SELECT 1`.execute(tx)],
    [
      "a read calling a lock function",
      (tx: typeof db.kysely) => tx.selectNoFrom((eb) => eb.fn("pg_try_advisory_xact_lock", [eb.lit(42)]).as("l")).execute(),
    ],
  ])("%s sends BEGIN first", async (_name, statement) => {
    const sent = await controlSent(() => db.kysely.transaction().execute(async (tx) => statement(tx)));
    expect(sent).toEqual({ transactions: 1, transactionControl: 2 });
  });

  it("a transaction with its own isolation level begins at once", async () => {
    const sent = await controlSent(() =>
      db.kysely
        .transaction()
        .setIsolationLevel("repeatable read")
        .execute(async (tx) => settingsOf(tx).execute()),
    );
    expect(sent).toEqual({ transactions: 1, transactionControl: 2 });
  });

  it("a final statement with nothing before it runs alone, and fails as a whole", async () => {
    const statement = (tx: typeof db.kysely, second: string) =>
      tx
        .with("first", (q) => q.insertInto("ActivityEvent").values(activity("act_lazy_f1")))
        .insertInto("ActivityEvent")
        .values(activity(second))
        .compile();
    const ok = await controlSent(() =>
      db.kysely.transaction().execute(async (tx) => tx.executeQuery(markFinal(statement(tx, "act_lazy_f2")))),
    );
    expect(ok).toEqual({ transactions: 0, transactionControl: 0 });
    expect(await activityRows("act_lazy_f")).toBe(2);
    await db.kysely.deleteFrom("ActivityEvent").where("id", "like", "act_lazy_f%").execute();
    // The second insert collides with the first: the whole statement (its CTE included) writes nothing.
    const failed = await controlSent(
      () => db.kysely.transaction().execute(async (tx) => tx.executeQuery(markFinal(statement(tx, "act_lazy_f1")))),
      DUPLICATE,
    );
    expect(failed).toEqual({ transactions: 0, transactionControl: 0 });
    expect(await activityRows("act_lazy_f")).toBe(0);
  });

  it("refuses a statement after a final statement that ran without BEGIN", async () => {
    await expect(
      db.kysely.transaction().execute(async (tx) => {
        await tx.executeQuery(markFinal(tx.insertInto("ActivityEvent").values(activity("act_lazy_after")).compile()));
        await tx.insertInto("ActivityEvent").values(activity("act_lazy_after2")).execute();
      }),
    ).rejects.toThrow(/followed the final statement/);
  });

  it("a final statement after a write runs inside the transaction", async () => {
    const sent = await controlSent(
      () =>
        db.kysely.transaction().execute(async (tx) => {
          await tx.insertInto("ActivityEvent").values(activity("act_lazy_in1")).execute();
          await tx.executeQuery(markFinal(tx.insertInto("ActivityEvent").values(activity("act_lazy_in1")).compile()));
        }),
      DUPLICATE,
    );
    expect(sent).toEqual({ transactions: 1, transactionControl: 2 });
    expect(await activityRows("act_lazy_in")).toBe(0);
  });

  // The drivers keep one wrapper per connection and reset it at each checkout (lazy-transaction.ts, statement-counter.ts):
  // on a pool of two, every connection here is checked out again after it ended a transaction in each state.
  it("a connection checked out again starts afresh, whatever state its last transaction ended in", async () => {
    for (let round = 0; round < 3; round++) {
      const begun = await controlSent(() =>
        db.kysely.transaction().execute(async (tx) => {
          await tx
            .insertInto("ActivityEvent")
            .values(activity(`act_lazy_again_b${round}`))
            .execute();
        }),
      );
      expect(begun).toEqual({ transactions: 1, transactionControl: 2 });
      const finished = await controlSent(() =>
        db.kysely.transaction().execute(async (tx) =>
          tx.executeQuery(
            markFinal(
              tx
                .insertInto("ActivityEvent")
                .values(activity(`act_lazy_again_f${round}`))
                .compile(),
            ),
          ),
        ),
      );
      expect(finished).toEqual({ transactions: 0, transactionControl: 0 });
      // Neither "begun" nor "finished" carries over: reads alone send nothing, and a statement outside a transaction runs.
      const reads = await controlSent(() =>
        Promise.all([0, 1].map(() => db.kysely.transaction().execute(async (tx) => settingsOf(tx).execute()))),
      );
      expect(reads).toEqual({ transactions: 0, transactionControl: 0 });
      expect((await settingsOf().execute()).length).toBe(1);
    }
    expect(await activityRows("act_lazy_again_")).toBe(6);
  });
});

describe("isPlainRead", () => {
  const q = () => db.kysely;
  it.each([
    ["a select", () => q().selectFrom("ApiKey").select("id").compile(), true],
    [
      "a select with a subquery and json functions",
      () =>
        q()
          .selectFrom("Wallet as w")
          .select((eb) => eb.fn.countAll().as("n"))
          .compile(),
      true,
    ],
    ["FOR UPDATE", () => q().selectFrom("ApiKey").select("id").forUpdate().compile(), false],
    ["FOR SHARE SKIP LOCKED", () => q().selectFrom("ApiKey").select("id").forShare().skipLocked().compile(), false],
    [
      "a CTE",
      () =>
        q()
          .with("x", (d) => d.selectFrom("ApiKey").select("id"))
          .selectFrom("x")
          .select("id")
          .compile(),
      false,
    ],
    ["an insert", () => q().insertInto("Organization").values({ id: "o" }).compile(), false],
    [
      "nextval",
      () =>
        q()
          .selectNoFrom((eb) => eb.fn("nextval", [eb.val("s")]).as("n"))
          .compile(),
      false,
    ],
    [
      "pg_notify",
      () =>
        q()
          .selectNoFrom((eb) => eb.fn("pg_notify", [eb.val("c"), eb.val("p")]).as("n"))
          .compile(),
      false,
    ],
  ])("%s → %s", (_name, compile, plain) => {
    expect(isPlainRead(compile())).toBe(plain);
  });
});
