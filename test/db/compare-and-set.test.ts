// compareAndSet: the one version-guarded update (server/db/compare-and-set.ts). The first writer at a version wins and
// advances it; a writer holding the old version, or failing the extra guard, changes nothing and learns it lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareAndSet } from "../../server/db/compare-and-set.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;
const ORG = "org_compare_and_set";

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await db.kysely.insertInto("Organization").values({ id: ORG }).execute();
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

let n = 0;
async function project(stage = "draft") {
  const id = `cpr_cas_${++n}`;
  await db.kysely
    .insertInto("ContractProject")
    .values({
      id,
      organizationId: ORG,
      environment: "sandbox",
      template: "t",
      asset: "USDX",
      tokenName: "X",
      decimals: 6,
      network: "n",
      contractName: "C",
      source: "s",
      sourceSha256: "h",
      stage,
    })
    .execute();
  return db.kysely.selectFrom("ContractProject").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

describe("compareAndSet", () => {
  it("the first writer at a version wins and advances it by one; a second writer at that version loses", async () => {
    const read = await project();
    const won = await compareAndSet(db.kysely, "ContractProject", read, { source: "first" });
    expect(won).toMatchObject({ id: read.id, source: "first", version: read.version + 1 });
    const lost = await compareAndSet(db.kysely, "ContractProject", read, { source: "second" });
    expect(lost).toBeUndefined();
    const stored = await db.kysely.selectFrom("ContractProject").selectAll().where("id", "=", read.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ source: "first", version: read.version + 1 });
  });

  it("an extra guard that does not hold changes nothing, at the current version too", async () => {
    const read = await project("compiled");
    expect(await compareAndSet(db.kysely, "ContractProject", read, { source: "x" }, (eb) => eb("stage", "=", "draft"))).toBeUndefined();
    const won = await compareAndSet(db.kysely, "ContractProject", read, { source: "y" }, (eb) => eb("stage", "=", "compiled"));
    expect(won).toMatchObject({ source: "y", version: read.version + 1 });
  });
});
