// GET /api/v1/balances: per-asset totals across the organization's sandbox wallets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let call: ReturnType<typeof api>;
let otherOrg: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: "org_bal", scopes: ["wallets:write"] })).key);
  otherOrg = api(server.url, (await server.createKey({ organizationId: "org_bal_other", scopes: ["wallets:write"] })).key);
});
afterAll(() => server?.close());

const balances = (each: string, walletCount: number, totalUSD: string) => ({
  walletCount,
  assets: [
    { asset: "USDC", balance: each, decimals: 6, usdValue: each },
    { asset: "USDT", balance: each, decimals: 6, usdValue: each },
    { asset: "DAI", balance: each, decimals: 18, usdValue: each },
  ],
  totalUSD,
});

describe("GET /api/v1/balances", () => {
  it("is all zeros before the organization has a wallet", async () => {
    // Another organization's wallets exist already; they must not show up here.
    expect((await otherOrg("POST", "/api/v1/wallets", { chain: "base" })).status).toBe(201);
    const res = await call("GET", "/api/v1/balances");
    expect(res.status).toBe(200);
    expect(res.json).toEqual(balances("0.00", 0, "0.00"));
  });

  it.each([
    [1, "1000.00", "3000.00"],
    [2, "2000.00", "6000.00"],
  ])("after %i wallet(s): each asset %s, totalUSD %s", async (wallets, each, total) => {
    const current = (await call("GET", "/api/v1/balances")).json.walletCount;
    for (let i = current; i < wallets; i++) {
      expect((await call("POST", "/api/v1/wallets", { chain: i % 2 ? "solana" : "polygon" })).status).toBe(201);
    }
    const res = await call("GET", "/api/v1/balances");
    expect(res.status).toBe(200);
    expect(res.json).toEqual(balances(each, wallets, total));
  });

  it("excludes other organizations' wallets (and theirs exclude ours)", async () => {
    for (let i = 0; i < 3; i++) await otherOrg("POST", "/api/v1/wallets", { chain: "ethereum" });
    expect((await call("GET", "/api/v1/balances")).json).toEqual(balances("2000.00", 2, "6000.00"));
    expect((await otherOrg("GET", "/api/v1/balances")).json).toEqual(balances("4000.00", 4, "12000.00"));
  });

  it("agrees with the sum of the per-wallet balances", async () => {
    const wallets = (await call("GET", "/api/v1/wallets")).json.data as Array<{ id: string; balance: string }>;
    const sum = wallets.reduce((total, w) => total + Number(w.balance), 0);
    expect((await call("GET", "/api/v1/balances")).json.totalUSD).toBe(sum.toFixed(2));
  });

  it("takes no query parameters", async () => {
    const res = await call("GET", "/api/v1/balances?asset=USDC");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_request");
  });
});
