// Every statement Kysely sends on PostgreSQL is prepared once per connection and then executed by name
// (server/db/bounded-client.ts, BoundedClient): the database parses and plans each text once per connection, and keeps
// no more than PREPARED_STATEMENTS_PER_CONNECTION of them.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREPARED_STATEMENTS_PER_CONNECTION } from "../../server/db/bounded-client.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;

describe.runIf(onPostgres)("prepared statements on PostgreSQL", () => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrated: true });
    db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 1 });
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  /** The statements the (single) pooled connection has prepared, read on that connection. */
  const preparedOnConnection = async () =>
    (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(db.kysely)).rows.map((r) => r.statement);

  it("prepares a statement once and runs it again by name, with each call's values", async () => {
    const byId = (id: string) => db.kysely.selectFrom("Organization").select("id").where("id", "=", id);
    await db.kysely
      .insertInto("Organization")
      .values([{ id: "org_p1" }, { id: "org_p2" }])
      .execute();
    expect(await byId("org_p1").execute()).toEqual([{ id: "org_p1" }]);
    expect(await byId("org_p2").execute()).toEqual([{ id: "org_p2" }]);
    const text = byId("x").compile().sql;
    expect((await preparedOnConnection()).filter((s) => s === text)).toHaveLength(1);
  });

  it("sends a Date as its instant whatever the process's time zone; an invalid Date is refused", async () => {
    const at = new Date("2026-03-29T01:30:00.123Z"); // Berlin's clocks jump forward at this hour
    const zone = process.env.TZ;
    try {
      for (const tz of ["UTC", "Europe/Berlin", "America/St_Johns"]) {
        process.env.TZ = tz;
        const { rows } = await sql<{ ms: string; same: boolean }>`
          SELECT (extract(epoch FROM ${at}::timestamptz) * 1000)::bigint::text AS ms, ${at}::timestamptz = ${at.toISOString()}::timestamptz AS same`.execute(
          db.kysely,
        );
        expect(rows, tz).toEqual([{ ms: String(at.getTime()), same: true }]);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    await expect(sql`SELECT ${new Date("not a date")}::timestamptz`.execute(db.kysely)).rejects.toThrow();
  });

  it(`keeps at most ${PREPARED_STATEMENTS_PER_CONNECTION} statements per connection, the most recently used`, async () => {
    const distinct = (i: number) => db.kysely.selectFrom("Organization").select(sql<number>`${sql.lit(i)}`.as("n"));
    for (let i = 0; i < PREPARED_STATEMENTS_PER_CONNECTION + 30; i++) expect(await distinct(i).execute()).toHaveLength(2);
    const prepared = await preparedOnConnection();
    // The DEALLOCATEs are queued ahead of the next statement on the connection: the count is at most the cap (+1 for
    // the statement that reads the list itself).
    expect(prepared.length).toBeLessThanOrEqual(PREPARED_STATEMENTS_PER_CONNECTION + 1);
    expect(prepared).toContain(distinct(PREPARED_STATEMENTS_PER_CONNECTION + 29).compile().sql);
    expect(prepared).not.toContain(distinct(0).compile().sql);
    // An evicted text is prepared again under a new name and still answers.
    expect(await distinct(0).execute()).toHaveLength(2);
  });
});
