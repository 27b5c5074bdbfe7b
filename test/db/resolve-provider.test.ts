// The connection resolver: reviewed connections serve, newest first; sandbox fallback only where allowed; fail closed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthContext } from "../../server/context.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { resolveProvider } from "../../server/domain/providers/resolve-provider.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;
const sandbox: AuthContext = { apiKeyId: "key_1", organizationId: "org_r", environment: "sandbox", scopes: [], actor: "a" };
const production: AuthContext = { ...sandbox, environment: "production" };

async function addConnection(data: {
  environment: string;
  category: string;
  providerSlug?: string;
  reviewed?: boolean;
  config?: object;
  createdAt?: Date;
}) {
  return db.prisma.providerConnection.create({
    data: {
      id: `conn_${Math.random().toString(36).slice(2)}`,
      organizationId: "org_r",
      providerSlug: "simulator",
      reviewed: true,
      config: {},
      ...data,
    },
  });
}

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await db.prisma.organization.create({ data: { id: "org_r" } });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe("resolveProvider", () => {
  it("fails closed with PROVIDER_NOT_CONNECTED when nothing is connected and no fallback applies", async () => {
    await expect(resolveProvider({ db: db.kysely, auth: sandbox, category: "fx", sandboxFallback: false })).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONNECTED",
    });
    await expect(resolveProvider({ db: db.kysely, auth: production, category: "fx", sandboxFallback: true })).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONNECTED",
    });
  });

  it("falls back to the simulator in the sandbox for 'Sandbox only: simulated' endpoints — but never for custody", async () => {
    const fallback = await resolveProvider({ db: db.kysely, auth: sandbox, category: "bank_transfer", sandboxFallback: true });
    expect(fallback).toMatchObject({ simulated: true, connectionId: null });
    expect(fallback.adapter.category).toBe("bank_transfer");
    await expect(resolveProvider({ db: db.kysely, auth: sandbox, category: "custody", sandboxFallback: true })).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONNECTED",
    });
  });

  it("ignores unreviewed connections and other environments; the newest reviewed connection wins", async () => {
    await addConnection({ environment: "sandbox", category: "custody", reviewed: false });
    await addConnection({ environment: "production", category: "custody" });
    await expect(resolveProvider({ db: db.kysely, auth: sandbox, category: "custody", sandboxFallback: false })).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONNECTED",
    });
    const older = await addConnection({ environment: "sandbox", category: "custody", createdAt: new Date(Date.now() - 60_000) });
    const newer = await addConnection({ environment: "sandbox", category: "custody" });
    const resolved = await resolveProvider({ db: db.kysely, auth: sandbox, category: "custody", sandboxFallback: false });
    expect(resolved.connectionId).toBe(newer.id);
    expect(resolved.connectionId).not.toBe(older.id);
    expect(resolved.simulated).toBe(true);
  });

  it("a simulator connection for production (a row from before the admin API refused them) serves nothing", async () => {
    await addConnection({ environment: "production", category: "bank_transfer" });
    await expect(
      resolveProvider({ db: db.kysely, auth: production, category: "bank_transfer", sandboxFallback: true }),
    ).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONNECTED",
    });
  });

  it("answers SERVER_MISCONFIGURED for an unknown provider slug or an unusable config", async () => {
    await addConnection({ environment: "sandbox", category: "chain_read", providerSlug: "acme-node" });
    await expect(resolveProvider({ db: db.kysely, auth: sandbox, category: "chain_read", sandboxFallback: false })).rejects.toMatchObject({
      code: "SERVER_MISCONFIGURED",
    });
    await addConnection({ environment: "sandbox", category: "fx", config: { spreadBps: -5 } });
    await expect(resolveProvider({ db: db.kysely, auth: sandbox, category: "fx", sandboxFallback: false })).rejects.toMatchObject({
      code: "SERVER_MISCONFIGURED",
    });
  });
});
