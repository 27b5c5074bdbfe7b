import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidAddress } from "../../server/domain/chains/addresses.ts";
import { toChecksumAddress } from "../../server/lib/chains/evm-address.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let call: ReturnType<typeof api>;
let otherOrg: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ scopes: ["wallets:write"] })).key);
  otherOrg = api(server.url, (await server.createKey({ organizationId: "org_other", scopes: ["wallets:write"] })).key);
});
afterAll(() => server?.close());

describe("POST /api/v1/wallets", () => {
  it.each(["ethereum", "polygon", "base", "solana"] as const)("creates a %s wallet with a valid address and test funds", async (chain) => {
    const res = await call("POST", "/api/v1/wallets", { chain, label: `my ${chain}` });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ chain, label: `my ${chain}`, balance: "3000.00" });
    expect(res.json.id).toMatch(/^wal_/);
    expect(isValidAddress(chain, res.json.address)).toBe(true);
    if (chain !== "solana") expect(res.json.address).toBe(toChecksumAddress(res.json.address));
    expect(res.json.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("defaults label to null", async () => {
    const res = await call("POST", "/api/v1/wallets", { chain: "base" });
    expect(res.status).toBe(201);
    expect(res.json.label).toBeNull();
  });

  it.each([
    ["unknown chain", { chain: "bitcoin" }, "/body/chain"],
    ["missing chain", { label: "x" }, "/body/chain"],
    ["unknown field", { chain: "base", color: "red" }, "/body"],
    ["wrong type", { chain: "base", label: 42 }, "/body/label"],
    ["empty label", { chain: "base", label: "" }, "/body/label"],
  ])("rejects %s with 400 invalid_request", async (_name, body, path) => {
    const res = await call("POST", "/api/v1/wallets", body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "invalid_request", requestId: res.headers.get("x-request-id") });
    expect(res.json.errors.some((e: { path: string }) => e.path.startsWith(path))).toBe(true);
  });
});

describe("GET /api/v1/wallets, /wallets/{id}, /wallets/{id}/balance", () => {
  it("lists the organization's wallets newest first with the total count", async () => {
    const a = await call("POST", "/api/v1/wallets", { chain: "polygon" });
    const b = await call("POST", "/api/v1/wallets", { chain: "polygon" });
    await otherOrg("POST", "/api/v1/wallets", { chain: "polygon" });
    const res = await call("GET", "/api/v1/wallets");
    expect(res.status).toBe(200);
    const ids = res.json.data.map((w: { id: string }) => w.id);
    expect(res.json.count).toBe(ids.length);
    expect(ids.indexOf(b.json.id)).toBeLessThan(ids.indexOf(a.json.id));
    const other = await otherOrg("GET", "/api/v1/wallets");
    expect(other.json.count).toBe(1);
    expect(ids).not.toContain(other.json.data[0].id);
  });

  it("pages with limit and offset", async () => {
    const all = await call("GET", "/api/v1/wallets");
    const page = await call("GET", "/api/v1/wallets?limit=2&offset=1");
    expect(page.json).toMatchObject({ count: all.json.count, limit: 2, offset: 1 });
    expect(page.json.data.map((w: { id: string }) => w.id)).toEqual(all.json.data.slice(1, 3).map((w: { id: string }) => w.id));
  });

  it("retrieves one wallet and its balances", async () => {
    const created = await call("POST", "/api/v1/wallets", { chain: "solana", label: "sol" });
    const got = await call("GET", `/api/v1/wallets/${created.json.id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(created.json);
    const balance = await call("GET", `/api/v1/wallets/${created.json.id}/balance`);
    expect(balance.status).toBe(200);
    expect(balance.json).toEqual({
      walletId: created.json.id,
      chain: "solana",
      assets: [
        { asset: "USDC", balance: "1000.00", decimals: 6, usdValue: "1000.00" },
        { asset: "USDT", balance: "1000.00", decimals: 6, usdValue: "1000.00" },
        { asset: "DAI", balance: "1000.00", decimals: 18, usdValue: "1000.00" },
      ],
      totalUSD: "3000.00",
    });
  });

  it.each(["", "/balance"])("answers 404 for a missing wallet and for another organization's wallet (%s)", async (suffix) => {
    const missing = await call("GET", `/api/v1/wallets/wal_doesnotexist${suffix}`);
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe("not_found");
    const theirs = await otherOrg("POST", "/api/v1/wallets", { chain: "base" });
    const res = await call("GET", `/api/v1/wallets/${theirs.json.id}${suffix}`);
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });
});
