// The precompiled query binds each call's values by name into SQL compiled once, keeps the query's own constants, and
// returns what the same query built afresh returns — on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { precompiled } from "../../server/db/precompiled-query.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await db.kysely
    .insertInto("Organization")
    .values([{ id: "org_a" }, { id: "org_b" }])
    .execute();
  await db.kysely
    .insertInto("ApiKey")
    .values(
      ["org_a", "org_a", "org_b"].map((organizationId, i) => ({
        id: `key_${i}`,
        organizationId,
        environment: i === 1 ? "production" : "sandbox",
        prefix: `cp_${i}`,
        hash: `hash_${i}`,
        scopes: ["wallets:read"],
        actor: "test",
      })),
    )
    .execute();
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

const sandboxKeysOf = precompiled((q, p: { organizationId: string }) =>
  q
    .selectFrom("ApiKey")
    .select(["id", "organizationId", "environment"])
    .where("organizationId", "=", p.organizationId)
    .where("environment", "=", "sandbox") // a constant of the query, not a parameter of the call
    .orderBy("id"),
);

describe("precompiled queries", () => {
  it("binds each call's values by name and keeps the query's constants", async () => {
    expect(await sandboxKeysOf.execute(db.kysely, { organizationId: "org_a" })).toEqual([
      { id: "key_0", organizationId: "org_a", environment: "sandbox" },
    ]);
    expect(await sandboxKeysOf.execute(db.kysely, { organizationId: "org_b" })).toEqual([
      { id: "key_2", organizationId: "org_b", environment: "sandbox" },
    ]);
    expect(await sandboxKeysOf.execute(db.kysely, { organizationId: "org_none" })).toEqual([]);
  });

  it("returns what the same query built afresh returns, and runs inside a transaction", async () => {
    const fresh = await db.kysely
      .selectFrom("ApiKey")
      .select(["id", "organizationId", "environment"])
      .where("organizationId", "=", "org_a")
      .where("environment", "=", "sandbox")
      .orderBy("id")
      .execute();
    const inTransaction = await db.kysely.transaction().execute((tx) => sandboxKeysOf.execute(tx, { organizationId: "org_a" }));
    expect(inTransaction).toEqual(fresh);
  });
});
