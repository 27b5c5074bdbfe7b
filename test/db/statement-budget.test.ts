// Statement budgets of the hot paths, counted on the driver (server/db/statement-counter.ts) around one request.
// A statement is one data round trip; BEGIN/COMMIT/ROLLBACK are counted apart (as transaction control) and the number
// of transactions has its own budget. Adding a statement to one of these paths fails here, on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";
import { BANK_TRANSFER, sepaTransfer } from "../system/bodies.ts";

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const SEPA_TRANSFER = sepaTransfer("INV-2026-0042");

let server: TestServer;
let call: ReturnType<typeof api>;
let walletId: string;

/** The statements, transaction-control round trips and transactions one request cost. */
async function cost(request: () => Promise<{ status: number; text: string }>, expectedStatus: number) {
  const before = server.db.statements.snapshot();
  const res = await request();
  expect(res.status, res.text).toBe(expectedStatus);
  const after = server.db.statements.snapshot();
  return {
    statements: after.statements - before.statements,
    transactions: after.transactions - before.transactions,
    transactionControl: after.transactionControl - before.transactionControl,
  };
}

beforeAll(async () => {
  server = await startTestServer();
  const key = await server.createKey({ scopes: ["wallets:write", "payments:write"] });
  call = api(server.url, key.key);
  const wallet = await call("POST", "/api/v1/wallets", { chain: "base", label: "budget" });
  walletId = wallet.json.id;
});
afterAll(() => server?.close());

describe("statement budgets per request", () => {
  it("authenticated GET /api/v1/wallets/{id}: ≤ 2 statements, no transaction", async () => {
    const spent = await cost(() => call("GET", `/api/v1/wallets/${walletId}`), 200);
    expect(spent.statements).toBeLessThanOrEqual(2);
    expect(spent.transactions).toBe(0);
  });

  it("POST /api/v1/payments with an Idempotency-Key: ≤ 4 statements in 1 transaction", async () => {
    const body = { amount: "125.50", stablecoin: "USDC", chain: "base", toAddress: EVM };
    const spent = await cost(() => call("POST", "/api/v1/payments", body, idem()), 201);
    expect(spent.statements).toBeLessThanOrEqual(4);
    expect(spent.transactions).toBe(1);
  });

  it("POST /api/v2/agent/payments/bank-transfer: ≤ 6 statements in ≤ 2 transactions (the provider call between them)", async () => {
    const spent = await cost(() => call("POST", BANK_TRANSFER, SEPA_TRANSFER, idem()), 201);
    expect(spent.statements).toBeLessThanOrEqual(6);
    expect(spent.transactions).toBeLessThanOrEqual(2);
  });

  it.each([
    ["POST /api/v1/payments", "/api/v1/payments", { amount: "1.00", stablecoin: "USDC", chain: "base", toAddress: EVM }, 201],
    ["POST /api/v2/agent/payments/bank-transfer", BANK_TRANSFER, SEPA_TRANSFER, 201],
  ])("idempotent replay of %s: ≤ 2 statements, the stored bytes", async (_name, path, body, status) => {
    const headers = idem();
    const first = await call("POST", path, body, headers);
    expect(first.status).toBe(status);
    let replayed = "";
    const spent = await cost(async () => {
      const res = await call("POST", path, body, headers);
      replayed = res.text;
      expect(res.headers.get("idempotent-replayed")).toBe("true");
      return res;
    }, status);
    expect(replayed).toBe(first.text);
    expect(spent.statements).toBeLessThanOrEqual(2);
    expect(spent.transactions).toBeLessThanOrEqual(1);
  });
});
