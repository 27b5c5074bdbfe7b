// Rows loaded straight through SQL (generate_series: a million in seconds, not through the API) for the growth bench
// (bench/growth-bench.ts) and the list-plan test (test/db/list-plans.test.ts): bank transfers, events and cards spread
// over ORGS organizations (org_growth_0 … org_growth_9, sandbox), createdAt one second apart going back from BASE, a
// status mix with a rare one (failed ≈2%, frozen ≈2%) so a status filter is selective.
import type pg from "pg";

export const ORGS = 10;
export const GROWTH_ORG = (i: number) => `org_growth_${i}`;
export const BASE = new Date("2026-11-01T00:00:00Z");

type Runner = Pick<pg.ClientBase, "query">;

/** The seeded bank transfer number `n`'s id (the API's pattern: bt_ and at least 20 letters or digits). */
export const bankTransferId = (n: number) => `bt_g${String(n).padStart(20, "0")}`;

/** The ORGS organizations (idempotent). */
export async function seedOrganizations(db: Runner): Promise<void> {
  await db.query(
    `INSERT INTO "Organization" (id) SELECT 'org_growth_' || o FROM generate_series(0, ${ORGS - 1}) AS o ON CONFLICT (id) DO NOTHING`,
  );
}

/** Bank transfers number `from` … `to - 1` (ids: bankTransferId). */
export async function seedBankTransfers(db: Runner, from: number, to: number): Promise<void> {
  await db.query(
    `INSERT INTO "BankTransfer" (id, "organizationId", environment, status, "amountMinor", currency, rail, source, destination,
       "senderJurisdiction", "receiverJurisdiction", provider, simulated, "statusHistory", reference, "createdAt", "updatedAt")
     SELECT 'bt_g' || lpad(g::text, 20, '0'), 'org_growth_' || (g % ${ORGS}), 'sandbox',
       CASE WHEN g % 50 = 7 THEN 'failed' WHEN g % 3 = 0 THEN 'completed' WHEN g % 3 = 1 THEN 'processing' ELSE 'pending' END,
       (g % 100000) * 100, 'EUR', 'sepa',
       '{"type":"iban","iban":"DE89370400440532013000","accountHolderName":"Acme Trading GmbH","country":"DE"}'::jsonb,
       '{"type":"iban","iban":"FR1420041010050500013M02606","accountHolderName":"Dupont SARL","country":"FR"}'::jsonb,
       'DE', 'FR', 'simulator', true, '[]'::jsonb, 'GROWTH-' || g,
       $1::timestamptz - make_interval(secs => g), $1::timestamptz - make_interval(secs => g)
     FROM generate_series($2::int, $3::int - 1) AS g`,
    [BASE, from, to],
  );
}

/** Events number `from` … `to - 1` (ids evt_g<n>), about bank transfers. */
export async function seedEvents(db: Runner, from: number, to: number): Promise<void> {
  await db.query(
    `INSERT INTO "Event" (id, "organizationId", environment, type, "resourceId", data, simulated, "createdAt")
     SELECT 'evt_g' || g, 'org_growth_' || (g % ${ORGS}), 'sandbox',
       CASE WHEN g % 4 = 0 THEN 'bank_transfer.completed' WHEN g % 50 = 7 THEN 'bank_transfer.failed' ELSE 'bank_transfer.created' END,
       'bt_g' || lpad(g::text, 20, '0'), jsonb_build_object('id', 'bt_g' || lpad(g::text, 20, '0'), 'status', 'pending', 'amount', '1250.00', 'currency', 'EUR'), true,
       $1::timestamptz - make_interval(secs => g)
     FROM generate_series($2::int, $3::int - 1) AS g`,
    [BASE, from, to],
  );
}

/** One card programme per organization (idempotent), then cards number `from` … `to - 1` (ids card_g<n>). */
export async function seedCards(db: Runner, from: number, to: number): Promise<void> {
  await seedOrganizations(db);
  await db.query(
    `INSERT INTO "CardProgramme" (id, "organizationId", environment, name, network, "binSponsor", "fundingAsset", "fundingModel",
       status, "providerSlug", "providerReference", simulated)
     SELECT 'cpg_growth_' || o, 'org_growth_' || o, 'sandbox', 'Growth ' || o, 'visa', 'sponsor', 'USDC', 'prefunded', 'active',
       'simulator', 'ref_growth_' || o, true
     FROM generate_series(0, ${ORGS - 1}) AS o
     ON CONFLICT (id) DO NOTHING`,
  );
  await db.query(
    `INSERT INTO "Card" (id, "organizationId", environment, "programmeId", status, last4, "expMonth", "expYear", brand,
       "providerReference", simulated, "createdAt", "updatedAt")
     SELECT 'card_g' || g, 'org_growth_' || (g % ${ORGS}), 'sandbox', 'cpg_growth_' || (g % ${ORGS}),
       CASE WHEN g % 50 = 7 THEN 'frozen' ELSE 'active' END, lpad((g % 10000)::text, 4, '0'), 12, 2030, 'visa',
       'ref_card_g' || g, true, $1::timestamptz - make_interval(secs => g), $1::timestamptz - make_interval(secs => g)
     FROM generate_series($2::int, $3::int - 1) AS g`,
    [BASE, from, to],
  );
}
