// Every cursor list the growth bench measures (bank transfers, events, cards: first page, a deep page by cursor, a
// createdAt range, a status/type filter) is planned on an index by PostgreSQL, not a sequential scan of the table: the
// queries are the ones the domain functions send (captured through Kysely's log), EXPLAINed with their parameters on
// 40,000 bank transfers and events and 10,000 cards over 10 organizations, ANALYZEd, with the planner's settings
// untouched (no enable_seqscan = off: a plan the planner would not choose on its own does not count). At this volume a
// sequential scan would be chosen for a query no index serves. PostgreSQL only: PGlite's plans are not production's.
import { type CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankTransferId, GROWTH_ORG, seedBankTransfers, seedCards, seedEvents } from "../../bench/growth-seed.ts";
import type { AuthContext } from "../../server/context.ts";
import type { DB } from "../../server/db/kysely.ts";
import type { PageWindow } from "../../server/db/newest-first-page.ts";
import { listBankTransfers } from "../../server/domain/bank-transfers/list-bank-transfers.ts";
import { listCards } from "../../server/domain/cards/list-cards.ts";
import { listEvents } from "../../server/domain/webhooks/list-events.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;
const ROWS = 40_000;
const CARDS = 10_000;

describe.runIf(onPostgres)("list query plans on PostgreSQL", () => {
  let testDb: TestDatabase;
  let pool: pg.Pool;
  let db: Kysely<DB>;
  const captured: CompiledQuery[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrated: true });
    pool = new pg.Pool({ connectionString: testDb.url, max: 2 });
    pool.on("error", () => {});
    db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        if (event.level === "query") captured.push(event.query);
      },
    });
    const client = await pool.connect();
    try {
      await seedBankTransfers(client, 0, ROWS);
      await seedEvents(client, 0, ROWS);
      await seedCards(client, 0, CARDS);
      await client.query(
        `INSERT INTO "ProviderConnection" (id, "organizationId", environment, category, "providerSlug", reviewed)
         SELECT 'pc_growth_' || o, 'org_growth_' || o, 'sandbox', 'card_issuance', 'simulator', true FROM generate_series(0, 9) AS o`,
      );
      await client.query(`ANALYZE "BankTransfer"; ANALYZE "Event"; ANALYZE "Card"; ANALYZE "CardProgramme"; ANALYZE "ProviderConnection"`);
    } finally {
      client.release();
    }
  });
  afterAll(async () => {
    await db?.destroy();
    await testDb?.drop();
  });

  const auth: AuthContext = { apiKeyId: "key_plans", organizationId: GROWTH_ORG(3), environment: "sandbox", scopes: [], actor: "test" };
  /** A row ~3/4 down organization 3's list: the cursor of a deep page. */
  const deepN = Math.floor((ROWS * 0.75) / 10) * 10 + 3;
  const deepCard = `card_g${Math.floor((CARDS * 0.75) / 10) * 10 + 3}`;
  const range: PageWindow = { limit: 20, createdAfter: new Date("2026-10-31T12:00:00Z"), createdBefore: new Date("2026-10-31T18:00:00Z") };

  /** Runs `list`, EXPLAINs every statement it sent on `table`, returns the plans' node types and relations. */
  async function plansOf(table: string, list: () => Promise<unknown>): Promise<string[]> {
    captured.length = 0;
    await list();
    const mine = captured.filter((q) => q.sql.includes(`from "${table}"`));
    expect(mine.length).toBeGreaterThan(0);
    const plans: string[] = [];
    for (const query of mine) {
      const { rows } = await pool.query(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]);
      const nodes: string[] = [];
      const walk = (node: Record<string, unknown>) => {
        nodes.push(
          `${node["Node Type"]}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}`,
        );
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(rows[0]["QUERY PLAN"][0].Plan);
      plans.push(nodes.join(" > "));
    }
    return plans;
  }

  function expectIndexed(plans: string[], table: string): void {
    for (const plan of plans) {
      expect(plan, plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      expect(plan, plan).toMatch(new RegExp(`(Index Scan|Index Only Scan|Bitmap Index Scan)[^>]*(on ${table}|using "?${table}_)`));
    }
  }

  const cases: Array<[string, string, () => Promise<unknown>]> = [
    ["bank transfers, first page", "BankTransfer", () => listBankTransfers(db, { auth, window: { limit: 20 } })],
    [
      "bank transfers, deep page by cursor",
      "BankTransfer",
      () => listBankTransfers(db, { auth, window: { limit: 20, startingAfter: bankTransferId(deepN) } }),
    ],
    ["bank transfers, createdAt range", "BankTransfer", () => listBankTransfers(db, { auth, window: range })],
    [
      "bank transfers, status filter (rare)",
      "BankTransfer",
      () => listBankTransfers(db, { auth, window: { limit: 20 }, status: "failed" }),
    ],
    [
      "bank transfers, status filter, deep page",
      "BankTransfer",
      () => listBankTransfers(db, { auth, window: { limit: 20, startingAfter: bankTransferId(deepN) }, status: "completed" }),
    ],
    ["events, first page", "Event", () => listEvents(db, { auth, window: { limit: 20 } })],
    ["events, deep page by cursor", "Event", () => listEvents(db, { auth, window: { limit: 20, startingAfter: `evt_g${deepN}` } })],
    ["events, createdAt range", "Event", () => listEvents(db, { auth, window: range })],
    ["events, type filter", "Event", () => listEvents(db, { auth, window: { limit: 20 }, types: ["bank_transfer.failed"] })],
    ["cards, first page", "Card", () => listCards(db, { auth, window: { limit: 20 } })],
    ["cards, deep page by cursor", "Card", () => listCards(db, { auth, window: { limit: 20, startingAfter: deepCard } })],
    ["cards, createdAt range", "Card", () => listCards(db, { auth, window: range })],
    ["cards, status filter (rare)", "Card", () => listCards(db, { auth, window: { limit: 20 }, status: "frozen" })],
  ];

  for (const [name, table, list] of cases) {
    it(`${name}: every statement on ${table} uses an index`, async () => {
      expectIndexed(await plansOf(table, list), table);
    });
  }
});
