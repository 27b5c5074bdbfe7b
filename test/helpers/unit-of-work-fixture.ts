// The fixture of the tests that drive runUnitOfWork directly (test/db/unit-of-work-faults.test.ts,
// test/db/claim-releases.test.ts): a migrated database of their own with one organization and one API key, and
// Idempotency-Key claims under that key, each with a fresh key.
import { afterAll, beforeAll } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import type { IdempotencyClaim } from "../../server/db/unit-of-work/index.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

export interface UnitOfWorkFixture {
  /** Set in beforeAll. */
  db: Database;
  /** A claim with a key never used before. */
  claim(): IdempotencyClaim;
}

/** Registers the beforeAll/afterAll that open and drop the database; `name` keeps ids apart between files. */
export function unitOfWorkFixture(name: string, poolSize: number): UnitOfWorkFixture {
  const organizationId = `org_${name}`;
  const apiKeyId = `key_${name}`;
  let testDb: TestDatabase | undefined;
  let n = 0;
  const fixture: UnitOfWorkFixture = {
    db: undefined as unknown as Database,
    claim: () => ({ organizationId, apiKeyId, method: "POST", path: "/test", key: `${name}-${++n}-${Date.now()}`, fingerprint: "f" }),
  };
  beforeAll(async () => {
    testDb = await createTestDatabase({ migrated: true });
    fixture.db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize });
    await fixture.db.kysely.insertInto("Organization").values({ id: organizationId }).execute();
    await fixture.db.kysely
      .insertInto("ApiKey")
      .values({ id: apiKeyId, organizationId, environment: "sandbox", prefix: `cp_${name}`, hash: `hash_${name}`, scopes: [], actor: "t" })
      .execute();
  });
  afterAll(async () => {
    await fixture.db?.close();
    await testDb?.drop();
  });
  return fixture;
}
