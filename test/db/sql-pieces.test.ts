// The closing statement assembled from precompiled pieces (server/db/sql-pieces.ts, closing-statement.ts) is exactly
// the statement Kysely builds for the same writes — text and parameters — and runs as one atomic statement on both
// databases, its guard included.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  builtWrite,
  type ClosingWrite,
  closingStatement,
  fromBuilders,
  insertWrite,
  templateWrite,
} from "../../server/db/closing-statement.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { precompiled } from "../../server/db/precompiled-query.ts";
import { fragmentsOf, joinedShapeCount } from "../../server/db/sql-pieces.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  await db.kysely.insertInto("Organization").values({ id: "org_pieces" }).execute();
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe("fragmentsOf", () => {
  it.each([
    ["placeholders in order", "select $1, $2 where x = $3", 3, ["select ", ", ", " where x = ", ""]],
    ["no placeholder", "select 1", 0, ["select 1"]],
    ["out of order", "select $2, $1", 2, undefined],
    ["a literal that reads like one", "select '$9', $1", 1, undefined],
    ["fewer than the parameters", "select $1", 2, undefined],
  ])("%s", (_name, text, count, fragments) => {
    expect(fragmentsOf(text, count)).toEqual(fragments);
  });
});

const now = new Date("2026-11-27T10:00:00.000Z");
const activity = (id: string) => ({
  id,
  organizationId: "org_pieces",
  environment: "sandbox",
  type: "pieces.test",
  resourceId: id,
  createdAt: now,
});
const settingsUpdate = precompiled((q, p: { id: string; settings: string }) =>
  q.updateTable("Organization").set({ settings: p.settings }).where("id", "=", p.id),
);
const recordInsert = (id: string, key: string) =>
  builtWrite((q) =>
    q
      .insertInto("IdempotencyRecord")
      .values({
        id,
        organizationId: "org_pieces",
        apiKeyId: "key",
        method: "POST",
        path: "/x",
        key,
        fingerprint: "f",
        expiresAt: now,
        state: "completed",
        lockToken: "",
        lockedUntil: now,
      })
      .onConflict((oc) => oc.columns(["organizationId", "apiKeyId", "key"]).doNothing())
      .returning("id"),
  );
const writes = (suffix: string): ClosingWrite[] => [
  insertWrite("ActivityEvent", activity(`act_pieces_${suffix}_1`)),
  insertWrite("ActivityEvent", { ...activity(`act_pieces_${suffix}_2`), amountUsd: "12.50" }),
  templateWrite(settingsUpdate, { id: "org_pieces", settings: JSON.stringify({ run: suffix }) }),
  builtWrite((q) => q.deleteFrom("ActivityEvent").where("id", "=", `act_pieces_${suffix}_gone`)),
];
const rows = async (suffix: string) =>
  (await db.kysely.selectFrom("ActivityEvent").select("id").where("id", "like", `act_pieces_${suffix}%`).orderBy("id").execute()).map(
    (r) => r.id,
  );

describe("closingStatement", () => {
  it.each([
    ["without a guard", undefined],
    ["with a guarded record write", recordInsert("idem_pieces_text", "text")],
  ])("from pieces is Kysely's own statement, %s", (_name, guard) => {
    const fromPieces = closingStatement(db.kysely, writes("text"), { guard });
    const byKysely = fromBuilders(db.kysely, writes("text"), guard);
    expect(fromPieces?.sql).toBe(byKysely.sql);
    expect(fromPieces?.parameters).toEqual(byKysely.parameters);
  });

  it("runs on the database: every write, atomically", async () => {
    await db.kysely.executeQuery(closingStatement(db.kysely, writes("run"), { guard: recordInsert("idem_pieces_run", "run") }) as never);
    expect(await rows("run")).toEqual(["act_pieces_run_1", "act_pieces_run_2"]);
    const org = await db.kysely.selectFrom("Organization").select("settings").where("id", "=", "org_pieces").executeTakeFirstOrThrow();
    expect(org.settings).toEqual({ run: "run" });
  });

  it("a failed guard (the record exists) writes nothing at all", async () => {
    const again = closingStatement(db.kysely, writes("lost"), { guard: recordInsert("idem_pieces_other", "run") });
    await expect(db.kysely.executeQuery(again as never)).rejects.toMatchObject({ code: "22012" });
    expect(await rows("lost")).toEqual([]);
  });

  it("a statement of fixed pieces only is joined once per shape; one built per statement is joined each time", () => {
    const fixed = (suffix: string, amountUsd?: string): ClosingWrite[] => [
      insertWrite("ActivityEvent", activity(`act_pieces_${suffix}_1`)),
      insertWrite("ActivityEvent", { ...activity(`act_pieces_${suffix}_2`), amountUsd }),
      templateWrite(settingsUpdate, { id: "org_pieces", settings: JSON.stringify({ run: suffix }) }),
    ];
    const before = joinedShapeCount();
    const first = closingStatement(db.kysely, fixed("a", "1.00"));
    expect(joinedShapeCount()).toBe(before + 1);
    const second = closingStatement(db.kysely, fixed("b", "2.00"));
    expect(joinedShapeCount()).toBe(before + 1);
    // The kept text, with each call's own values.
    expect(second?.sql).toBe(first?.sql);
    expect(second?.parameters).toEqual(fromBuilders(db.kysely, fixed("b", "2.00"), undefined).parameters);
    expect(second?.parameters).not.toEqual(first?.parameters);
    // Without amountUsd the second insert has one column less: a shape of its own, still Kysely's text.
    const other = closingStatement(db.kysely, fixed("c"));
    expect(joinedShapeCount()).toBe(before + 2);
    expect(other?.sql).not.toBe(first?.sql);
    expect(other?.sql).toBe(fromBuilders(db.kysely, fixed("c"), undefined).sql);
    // writes() has a builtWrite, compiled per statement: nothing kept.
    closingStatement(db.kysely, writes("built"));
    closingStatement(db.kysely, writes("built"));
    expect(joinedShapeCount()).toBe(before + 2);
  });

  it("falls back to Kysely's statement when a write cannot be cut into a piece", () => {
    const literal = builtWrite((q) => q.deleteFrom("ActivityEvent").where("type", "=", sql.lit("$1 literal")));
    const statement = closingStatement(db.kysely, [literal, ...writes("fallback")]);
    expect(statement?.sql).toBe(fromBuilders(db.kysely, [literal, ...writes("fallback")], undefined).sql);
  });
});
