// The change feed's guarantees on PostgreSQL (server/db/change-feed.ts): changes reach every listener with their scope;
// a listener cut off from the database stops trusting its caches within its trust window, and a barrier does not wait
// for it longer than the barrier bound — so whatever a partitioned process answers after the barrier comes from the
// database, not from memory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresChangeFeed } from "../../server/db/change-feed.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

const TIMING = { heartbeatMs: 100, trustMs: 400, barrierMs: 600 };
const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;

describe.runIf(onPostgres)("PostgreSQL change feed", () => {
  let testDb: TestDatabase;
  let db: Database;
  let proxy: TcpProxy;
  const feeds: PostgresChangeFeed[] = [];

  const feed = async (url: string) => {
    const f = new PostgresChangeFeed(url, TIMING);
    feeds.push(f);
    await f.start();
    return f;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrated: true });
    db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2, changeFeed: TIMING });
    const target = new URL(testDb.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await db.kysely.insertInto("Organization").values({ id: "org_feed" }).execute();
    await db.kysely
      .insertInto("ApiKey")
      .values({
        id: "key_feed",
        organizationId: "org_feed",
        environment: "sandbox",
        prefix: "cp",
        hash: "hash_feed",
        scopes: [],
        actor: "t",
      })
      .execute();
  });
  afterAll(async () => {
    for (const f of feeds) await f.close();
    await proxy?.close();
    await db?.close();
    await testDb?.drop();
  });

  it("delivers each change with its table and scope to every listener, before a barrier resolves", async () => {
    const [one, two] = [await feed(testDb.url), await feed(testDb.url)];
    const seen: string[][] = [[], []];
    one.subscribe((table, scope) => seen[0]?.push(`${table}:${scope}`));
    two.subscribe((table, scope) => seen[1]?.push(`${table}:${scope}`));
    await db.kysely.updateTable("ApiKey").set({ actor: "changed" }).where("id", "=", "key_feed").execute();
    await db.kysely
      .updateTable("Organization")
      .set({ settings: JSON.stringify({ policy: {} }) })
      .where("id", "=", "org_feed")
      .execute();
    await db.kysely
      .insertInto("ProviderConnection")
      .values({
        id: "conn_feed",
        organizationId: "org_feed",
        environment: "sandbox",
        category: "fx",
        providerSlug: "simulator",
        reviewed: true,
      })
      .execute();
    await one.barrier();
    for (const got of seen) expect(got).toEqual(["ApiKey:hash_feed", "Organization:org_feed", "ProviderConnection:org_feed"]);
  });

  it("a partitioned listener stops trusting within its trust window; a barrier waits for it no longer than its bound", async () => {
    const healthy = await feed(testDb.url);
    const partitioned = await feed(proxy.url(testDb.url));
    expect(partitioned.trusted()).toBe(true);
    proxy.blackHole();
    try {
      const started = Date.now();
      await healthy.barrier();
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(TIMING.barrierMs - 50);
      expect(waited).toBeLessThan(TIMING.barrierMs + 1_000);
      // The partitioned listener's last answered heartbeat was sent before the barrier: it no longer trusts.
      expect(partitioned.trusted()).toBe(false);
    } finally {
      proxy.restore();
    }
  });

  it("a lost connection ends trust at once and drops every copy; the feed reconnects and trusts again", async () => {
    const f = await feed(proxy.url(testDb.url));
    const missed: string[] = [];
    f.subscribe((table) => {
      if (table === "*") missed.push(table);
    });
    proxy.cut();
    await expect.poll(() => f.trusted(), { timeout: 2_000 }).toBe(false);
    expect(missed).toEqual(["*"]);
    proxy.restore();
    await expect.poll(() => f.trusted(), { timeout: 10_000 }).toBe(true);
  });
});
