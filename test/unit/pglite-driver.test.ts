// PGlite's Kysely driver hands released connection objects out again (server/db/pglite-dialect.ts), so the request
// path's per-connection wrappers find theirs. Handing one out to two holders at once would let the second run its
// statements inside the first one's transaction: a second release of the same object must not park it twice, and a
// connection released with its transaction still open must never be handed out again.
import { PGlite } from "@electric-sql/pglite";
import type { DatabaseConnection, Driver } from "kysely";
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGliteDialect } from "../../server/db/pglite-dialect.ts";

let pglite: PGlite;
let driver: Driver;

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.waitReady;
});
afterAll(() => pglite?.close());

const select = (connection: DatabaseConnection) => connection.executeQuery<{ one: number }>(CompiledQuery.raw("SELECT 1 AS one"));

describe("PGlite driver: released connections", () => {
  beforeAll(() => {
    driver = new PGliteDialect(pglite).createDriver();
  });

  it("hands a released connection out again, and it still runs statements", async () => {
    const first = await driver.acquireConnection();
    await driver.releaseConnection(first);
    const again = await driver.acquireConnection();
    expect(again).toBe(first);
    expect((await select(again)).rows).toEqual([{ one: 1 }]);
    await driver.releaseConnection(again);
  });

  it("released twice, it is handed to one holder only", async () => {
    const connection = await driver.acquireConnection();
    await driver.releaseConnection(connection);
    await driver.releaseConnection(connection);
    const a = await driver.acquireConnection();
    const b = await driver.acquireConnection();
    expect(a).toBe(connection);
    expect(b).not.toBe(connection);
    await driver.releaseConnection(a);
    await driver.releaseConnection(b);
  });

  it("released with its transaction open, it is never handed out again", async () => {
    const open = await driver.acquireConnection();
    await driver.beginTransaction(open, {});
    await driver.releaseConnection(open);
    const next = await driver.acquireConnection();
    expect(next).not.toBe(open);
    await driver.commitTransaction(open);
    // A committed connection released afterwards is kept again.
    await driver.releaseConnection(open);
    expect(await driver.acquireConnection()).toBe(open);
    await driver.releaseConnection(next);
  });

  it("keeps at most 64 released connections", async () => {
    const held = await Promise.all(Array.from({ length: 70 }, () => driver.acquireConnection()));
    for (const connection of held) await driver.releaseConnection(connection);
    const again = await Promise.all(Array.from({ length: 70 }, () => driver.acquireConnection()));
    const reused = again.filter((connection) => held.includes(connection));
    expect(new Set(again).size).toBe(70);
    expect(reused).toHaveLength(64);
  });
});
