// Helpers for the card tests: a programme, a card, funding, authorizations, and ledger invariants read from the database.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { api, startTestServer, type TestServer } from "./test-server.ts";
import { idem } from "./v2.ts";

export type Call = ReturnType<typeof api>;

export const CARDS = "/api/v2/agent/cards";
export const cardPath = (cardId: string, suffix = "") => `${CARDS}/${cardId}${suffix}`;
export const authorizationsPath = (cardId: string) => `${CARDS}/${cardId}/test-helpers/authorizations`;
export const capturePath = (cardId: string, authorizationId: string) => `${authorizationsPath(cardId)}/${authorizationId}/capture`;
export const reversePath = (cardId: string, authorizationId: string) => `${authorizationsPath(cardId)}/${authorizationId}/reverse`;

export const programmeBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Programme ${randomUUID()}`,
  network: "visa",
  binSponsor: "Sutton Bank",
  jurisdictions: ["US", "DE"],
  fundingAsset: "USDC",
  fundingModel: "prefunded",
  ...overrides,
});

export const cardholderBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Jenny Rosen",
  email: `jenny.${randomUUID()}@acme.example`,
  dateOfBirth: "1990-04-17",
  billingAddress: { line1: "1 Market Street", city: "San Francisco", postalCode: "94105", state: "CA", country: "US" },
  ...overrides,
});

export async function createProgramme(call: Call, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await call("POST", `${CARDS}/programmes`, programmeBody(overrides), idem());
  expect(res.status, res.text).toBe(201);
  return res.json.programmeId as string;
}

export async function issueCard(call: Call, programmeId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call("POST", `${CARDS}/issue`, { programmeId, cardholder: cardholderBody(), ...extra }, idem());
  expect(res.status, res.text).toBe(201);
  return res.json.cardId as string;
}

export async function fund(call: Call, cardId: string, amount: string, asset = "USDC") {
  const res = await call("POST", cardPath(cardId, "/fund"), { amount, asset }, idem());
  expect(res.status, res.text).toBe(200);
  return res.json;
}

export async function authorize(call: Call, cardId: string, amount: string, merchant?: Record<string, unknown>) {
  const res = await call("POST", authorizationsPath(cardId), { amount, ...(merchant ? { merchant } : {}) }, idem());
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A funded prefunded card, ready for authorizations. */
export async function fundedCard(call: Call, amount = "500.00", extra: Record<string, unknown> = {}): Promise<string> {
  const cardId = await issueCard(call, await createProgramme(call), extra);
  await fund(call, cardId, amount);
  return cardId;
}

interface EntryRow {
  journalId: string;
  account: string;
  direction: string;
  amountMinor: { toFixed(dp: number): string };
  organizationId: string;
  environment: string;
}

const signed = (e: EntryRow) => (e.direction === "credit" ? 1n : -1n) * BigInt(e.amountMinor.toFixed(0));

/** Ledger invariants over every entry of the database: each journal balances, each account of an organization sums to
 * its derived balance, no card account is negative, and the whole ledger of each organization sums to zero. Returns the
 * balance of every account (keyed `org/env/account`). */
export async function checkLedgerInvariants(server: TestServer): Promise<Map<string, bigint>> {
  const entries = (await server.db.prisma.cardLedgerEntry.findMany()) as unknown as EntryRow[];
  const journals = new Map<string, bigint>();
  const accounts = new Map<string, bigint>();
  const organizations = new Map<string, bigint>();
  for (const e of entries) {
    journals.set(e.journalId, (journals.get(e.journalId) ?? 0n) + signed(e));
    const key = `${e.organizationId}/${e.environment}/${e.account}`;
    accounts.set(key, (accounts.get(key) ?? 0n) + signed(e));
    organizations.set(
      `${e.organizationId}/${e.environment}`,
      (organizations.get(`${e.organizationId}/${e.environment}`) ?? 0n) + signed(e),
    );
  }
  for (const [journal, sum] of journals) expect(sum, `journal ${journal} balances`).toBe(0n);
  for (const [org, sum] of organizations) expect(sum, `ledger of ${org} sums to zero`).toBe(0n);
  for (const [account, balance] of accounts) {
    if (/:(available|pending|funding)$/.test(account)) expect(balance >= 0n, `${account} = ${balance} is not negative`).toBe(true);
  }
  return accounts;
}

/** Decimal string → minor units of USDC (6 decimals). */
export const usdc = (amount: string): bigint => {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(6, "0"));
};

/** Makes the database refuse writes to `table` (a BEFORE trigger raising `sqlstate`) while `run` runs — for `times`
 * statements only when given (then the writes succeed again, e.g. to prove a retry resolves a transient conflict).
 * Works on PGlite and PostgreSQL; the trigger is dropped in `finally`. */
export async function withFailingWrites<T>(
  server: TestServer,
  options: { table: string; on: "INSERT" | "UPDATE"; sqlstate?: string; times?: number },
  run: () => Promise<T>,
): Promise<T> {
  const { table, on, sqlstate = "P0001", times } = options;
  const db = server.db.prisma;
  const name = `card_test_fail_${table.toLowerCase()}_${on.toLowerCase()}`;
  const condition = times === undefined ? "TRUE" : `nextval('${name}_seq') <= ${times}`;
  if (times !== undefined) await db.$executeRawUnsafe(`CREATE SEQUENCE "${name}_seq"`);
  await db.$executeRawUnsafe(`
    CREATE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${condition} THEN RAISE EXCEPTION 'simulated write failure on ${table}' USING ERRCODE = '${sqlstate}'; END IF;
      RETURN NEW;
    END $$`);
  await db.$executeRawUnsafe(`CREATE TRIGGER "${name}" BEFORE ${on} ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${name}"()`);
  try {
    return await run();
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER "${name}" ON "${table}"`);
    await db.$executeRawUnsafe(`DROP FUNCTION "${name}"()`);
    if (times !== undefined) await db.$executeRawUnsafe(`DROP SEQUENCE "${name}_seq"`);
  }
}

/** Row counts of the card tables, to assert that a failed write left nothing behind. */
export async function cardTableCounts(server: TestServer) {
  const db = server.db.prisma;
  const [programmes, cardholders, cards, authorizations, transactions, entries, versions] = await Promise.all([
    db.cardProgramme.count(),
    db.cardholder.count(),
    db.card.count(),
    db.cardAuthorization.count(),
    db.cardTransaction.count(),
    db.cardLedgerEntry.count(),
    db.card.aggregate({ _sum: { version: true } }),
  ]);
  return { programmes, cardholders, cards, authorizations, transactions, entries, cardVersions: versions._sum.version ?? 0 };
}

/** A server whose reconciler takes an intent `reconcileAfterSeconds` after it was written, a `cards:write` key of
 * `organizationId`, and a programme: where each card reconcile test (test/http/card-*-reconcile.test.ts) starts. */
export async function startCardReconcileServer(organizationId: string, reconcileAfterSeconds: number) {
  const server = await startTestServer({ env: { RECONCILE_AFTER_SECONDS: String(reconcileAfterSeconds) } });
  const call = api(server.url, (await server.createKey({ organizationId, scopes: ["cards:write"] })).key);
  return { server, call, programmeId: await createProgramme(call) };
}
