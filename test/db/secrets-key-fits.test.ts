// The start's check that WEBHOOK_SECRETS_KEY opens the endpoint secrets already stored (server/domain/webhooks/
// secrets-key-fits.ts): nothing stored fits any key; the newest endpoint's secret must open under the current key or,
// while a rotation is under way, the previous one. Runs on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { describeUnopenableWebhookSecret, findUnopenableWebhookSecret } from "../../server/domain/webhooks/secrets-key-fits.ts";
import { sealSecret } from "../../server/lib/webhooks/secret-box.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";
import { insertWebhookEndpoint } from "../helpers/webhook-endpoint-row.ts";

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const OTHER = Buffer.alloc(32, 3);
let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe("does WEBHOOK_SECRETS_KEY fit the stored secrets?", () => {
  it("with no endpoint stored, any key fits", async () => {
    expect(await findUnopenableWebhookSecret(db.kysely, [OTHER])).toBeUndefined();
  });

  it("the key that sealed them fits; another one does not, and the start's line says how to rotate", async () => {
    const id = await insertWebhookEndpoint(db.kysely, sealSecret("whsec_b2xk", OLD), new Date("2026-01-01T00:00:00Z"));
    expect(await findUnopenableWebhookSecret(db.kysely, [OLD])).toBeUndefined();
    expect(await findUnopenableWebhookSecret(db.kysely, [OTHER])).toEqual({ endpointId: id });
    expect(describeUnopenableWebhookSecret(id)).toMatch(/WEBHOOK_SECRETS_KEY_PREVIOUS, then npm run reseal:webhook-secrets$/);
  });

  it("during a rotation the previous key opens what the new one does not", async () => {
    expect(await findUnopenableWebhookSecret(db.kysely, [NEW, OLD])).toBeUndefined();
  });

  it("the newest endpoint's secret is the one tried", async () => {
    const id = await insertWebhookEndpoint(db.kysely, sealSecret("whsec_bmV3", NEW), new Date("2026-02-01T00:00:00Z"));
    expect(await findUnopenableWebhookSecret(db.kysely, [NEW])).toBeUndefined();
    expect(await findUnopenableWebhookSecret(db.kysely, [OLD])).toEqual({ endpointId: id });
  });
});
