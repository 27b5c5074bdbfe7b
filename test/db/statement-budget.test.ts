// Statement budgets of the hot paths, counted on the driver (server/db/statement-counter.ts) around one request.
// A statement is one data round trip; BEGIN/COMMIT/ROLLBACK are counted apart (as transaction control) and the number
// of transactions has its own budget. Adding a statement to one of these paths fails here, on both databases.
//
// The budgets are what the paths cost today, below the ceilings (GET ≤ 2, replay ≤ 2, v1 payment ≤ 4, v2 bank
// transfer ≤ 6): with the API key, the provider connection and the policy settings answered from memory
// (server/db/cached-read.ts) as they are after an organization's first request, and once more with every copy cold.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StatementsSent, statementsSentDuring } from "../helpers/statements-sent.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";
import { BANK_TRANSFER, sepaTransfer } from "../system/bodies.ts";

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const SEPA_TRANSFER = sepaTransfer("INV-2026-0042");
const PAYMENT = { amount: "125.50", stablecoin: "USDC", chain: "base", toAddress: EVM };
const PAYMENT_1 = { amount: "1.00", stablecoin: "USDC", chain: "base", toAddress: EVM };

let server: TestServer;
let call: ReturnType<typeof api>;
let walletId: string;

type Cost = StatementsSent;

/** The statements, transaction-control round trips and transactions one request cost. */
function cost(request: () => Promise<{ status: number; text: string }>, expectedStatus: number): Promise<Cost> {
  return statementsSentDuring(server.db.statements, async () => {
    const res = await request();
    expect(res.status, res.text).toBe(expectedStatus);
    // A key's first use in a minute writes its "last used" 200 ms after authentication, off the request path
    // (server/middleware/key-usage.ts): waited for here, so it is counted whatever the machine's speed (cold keys only).
    await server.keyUsage.flush();
  });
}

const noTransaction = (statements: number): Cost => ({ statements, transactions: 0, transactionControl: 0 });

beforeAll(async () => {
  server = await startTestServer();
  const key = await server.createKey({ scopes: ["wallets:write", "payments:write"] });
  call = api(server.url, key.key);
  const wallet = await call("POST", "/api/v1/wallets", { chain: "base", label: "budget" });
  walletId = wallet.json.id;
  // The organization's first bank transfer reads its connection and settings into memory.
  expect((await call("POST", BANK_TRANSFER, sepaTransfer("INV-WARM-UP"), idem())).status).toBe(201);
  // The key's first use is written 200 ms after it (off the request path): not within the first budget below.
  await server.keyUsage.flush();
});
afterAll(() => server?.close());

describe("statement budgets per request (copies in memory)", () => {
  it("authenticated GET /api/v1/wallets/{id}: the wallet read alone", async () => {
    expect(await cost(() => call("GET", `/api/v1/wallets/${walletId}`), 200)).toEqual(noTransaction(1));
  });

  it("POST /api/v1/payments without an Idempotency-Key: one statement, no BEGIN (its rows are all deferred)", async () => {
    expect(await cost(() => call("POST", "/api/v1/payments", PAYMENT), 201)).toEqual(noTransaction(1));
  });

  it("POST /api/v1/payments with a fresh Idempotency-Key: the closing statement alone (it inserts the key's record, guarded)", async () => {
    expect(await cost(() => call("POST", "/api/v1/payments", PAYMENT, idem()), 201)).toEqual(noTransaction(1));
  });

  it("POST /api/v2/agent/payments/bank-transfer with a fresh Idempotency-Key: one closing statement on each side of the provider call (the first inserts the key's claim, guarded), and the simulated bank's own write (its books)", async () => {
    expect(await cost(() => call("POST", BANK_TRANSFER, SEPA_TRANSFER, idem()), 201)).toEqual(noTransaction(3));
  });

  it("POST /api/v1/payments by a key with spending limits: the key's record, then the limit locked, the 24 h sum and the closing statement in one transaction; its replay the record read alone", async () => {
    const limited = api(
      server.url,
      (await server.createKey({ scopes: ["payments:write"], spendingLimits: [{ asset: "USDC", per24h: "1000" }] })).key,
    );
    // Its first use (the key read into memory, its "last used" written) is not what is measured.
    expect((await limited("POST", "/api/v1/payments", PAYMENT)).status).toBe(201);
    await server.keyUsage.flush();
    const headers = idem();
    expect(await cost(() => limited("POST", "/api/v1/payments", PAYMENT, headers), 201)).toEqual({
      statements: 4,
      transactions: 1,
      transactionControl: 2,
    });
    expect(await cost(() => limited("POST", "/api/v1/payments", PAYMENT, headers), 201)).toEqual(noTransaction(1));
  });

  // Both keys are checked at close when fresh. A replay that finds the key's record at the guard runs the work, fails
  // the closing statement (nothing written), then reads the record; the instance then reads that key first
  // (server/db/unit-of-work/keys-to-read-first.ts), so the next replay is the record read alone. On an instance that
  // never saw the key (here: this one, its memory cleared, as a second instance's would be empty), the first again.
  it.each([
    ["POST /api/v1/payments", "here", 1, "/api/v1/payments", PAYMENT_1],
    ["POST /api/v2/agent/payments/bank-transfer", "here", 1, BANK_TRANSFER, SEPA_TRANSFER],
    ["POST /api/v1/payments", "elsewhere", 2, "/api/v1/payments", PAYMENT_1],
    ["POST /api/v2/agent/payments/bank-transfer", "elsewhere", 2, BANK_TRANSFER, SEPA_TRANSFER],
  ])("idempotent replay of %s, replayed before %s: %i statements, the stored bytes", async (_name, where, statements, path, body) => {
    const status = 201;
    const headers = idem();
    const first = await call("POST", path, body, headers);
    expect(first.status).toBe(status);
    expect((await call("POST", path, body, headers)).headers.get("idempotent-replayed")).toBe("true");
    if (where === "elsewhere") server.db.keysToReadFirst.clear();
    let replayed = "";
    const spent = await cost(async () => {
      const res = await call("POST", path, body, headers);
      replayed = res.text;
      expect(res.headers.get("idempotent-replayed")).toBe("true");
      return res;
    }, status);
    expect(replayed).toBe(first.text);
    expect(spent).toEqual(noTransaction(statements));
  });
});

describe("statement budgets with every copy cold (an organization's first requests)", () => {
  /** A key nobody used yet, of `organizationId`. */
  const coldKey = async (organizationId: string) =>
    api(server.url, (await server.createKey({ organizationId, scopes: ["wallets:write", "payments:write"] })).key);

  it("GET: the key and the wallet, then the key's first use recorded off the request path (≤ 2 + 1)", async () => {
    const cold = await coldKey("org_test");
    expect(await cost(() => cold("GET", `/api/v1/wallets/${walletId}`), 200)).toEqual(noTransaction(3));
  });

  it("bank transfer: the key, the connection, the settings, two closing statements, the simulated bank's books, then the key's first use (≤ 7 + 1)", async () => {
    const cold = await coldKey("org_budget_cold");
    expect(await cost(() => cold("POST", BANK_TRANSFER, SEPA_TRANSFER, idem()), 201)).toEqual(noTransaction(7));
  });
});
