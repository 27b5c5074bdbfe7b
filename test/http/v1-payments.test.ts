import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeysToReadFirst } from "../../server/db/unit-of-work/index.ts";
import { isValidAddress } from "../../server/domain/chains/addresses.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const SOL = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;

let server: TestServer;
let call: ReturnType<typeof api>;
let otherOrg: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: "org_pay", scopes: ["payments:write", "wallets:write"] })).key);
  otherOrg = api(server.url, (await server.createKey({ organizationId: "org_pay_other", scopes: ["payments:write"] })).key);
});
afterAll(() => server?.close());

describe("POST /api/v1/payments", () => {
  it.each([
    // amount, stablecoin, chain, to, expected fees (flat per chain + 0.10%, half-up to 6 dp)
    ["125.50", "USDC", "base", EVM, "0.1455"],
    ["100", "USDT", "ethereum", EVM, "0.60"],
    ["1", "DAI", "solana", SOL, "0.002"],
    ["0.000001", "USDC", "polygon", EVM, "0.01"],
    ["0.000000000000000001", "DAI", "polygon", EVM, "0.01"],
  ])("creates a confirmed payment of %s %s on %s with deterministic fees", async (amount, stablecoin, chain, toAddress, fees) => {
    const res = await call("POST", "/api/v1/payments", { amount, stablecoin, chain, toAddress });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: "confirmed", amount: res.json.amount, stablecoin, chain, toAddress, fees, metadata: null });
    expect(res.json.id).toMatch(/^pay_/);
    if (chain === "solana") expect(res.json.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
    else expect(res.json.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("stores and returns metadata", async () => {
    const res = await call("POST", "/api/v1/payments", {
      amount: "10",
      stablecoin: "USDC",
      chain: "base",
      toAddress: EVM,
      metadata: { orderId: "6735" },
    });
    expect(res.status).toBe(201);
    expect(res.json.metadata).toEqual({ orderId: "6735" });
    const got = await call("GET", `/api/v1/payments/${res.json.id}`);
    expect(got.json).toEqual(res.json);
  });

  it("answers the created payment byte for byte as a later GET reads it (metadata keys in their stored order)", async () => {
    const metadata = { zeta: "1", orderId: "6735", a: "x", ab: "y" };
    const res = await call("POST", "/api/v1/payments", { amount: "10.5", stablecoin: "USDC", chain: "base", toAddress: EVM, metadata });
    expect(res.status).toBe(201);
    const got = await call("GET", `/api/v1/payments/${res.json.id}`);
    expect(got.text).toBe(res.text);
    expect(Object.keys(res.json.metadata)).toEqual(["a", "ab", "zeta", "orderId"]);
  });

  it.each([
    ["exponent", { amount: "1e3" }, "/body/amount"],
    ["negative", { amount: "-1" }, "/body/amount"],
    ["zero", { amount: "0" }, "/body/amount"],
    ["number instead of string", { amount: 10 }, "/body/amount"],
    ["7 decimals for USDC", { amount: "1.1234567" }, "/body/amount"],
    ["19 decimals for DAI", { amount: "1.1234567890123456789", stablecoin: "DAI" }, "/body/amount"],
    ["unknown stablecoin", { stablecoin: "EURC" }, "/body/stablecoin"],
    ["unknown chain", { chain: "tron" }, "/body/chain"],
    ["solana address on an EVM chain", { toAddress: SOL }, "/body/toAddress"],
    ["EVM address on solana", { chain: "solana" }, "/body/toAddress"],
    ["bad EIP-55 checksum", { toAddress: "0x52908400098527886e0F7030069857D2E4169EE7" }, "/body/toAddress"],
    ["missing toAddress", { toAddress: undefined }, "/body/toAddress"],
    ["unknown field", { memo: "hi" }, "/body"],
    ["metadata value not a string", { metadata: { n: 1 } }, "/body/metadata"],
  ])("rejects %s with 400 invalid_request and writes nothing", async (_name, patch, path) => {
    const before = await call("GET", "/api/v1/payments");
    const body = { amount: "5", stablecoin: "USDC", chain: "base", toAddress: EVM, ...patch };
    const res = await call("POST", "/api/v1/payments", body);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_request");
    expect(res.json.errors.some((e: { path: string }) => e.path.startsWith(path))).toBe(true);
    const after = await call("GET", "/api/v1/payments");
    expect(after.json.count).toBe(before.json.count);
  });

  it("accepts an 18-decimal DAI amount", async () => {
    const res = await call("POST", "/api/v1/payments", {
      amount: "1.123456789012345678",
      stablecoin: "DAI",
      chain: "base",
      toAddress: EVM,
    });
    expect(res.status).toBe(201);
    expect(res.json.amount).toBe("1.123456789012345678");
  });
});

describe("GET /api/v1/payments", () => {
  it("paginates newest first with count = total and documented defaults", async () => {
    const s = await startTestServer();
    try {
      const c = api(s.url, (await s.createKey({ scopes: ["payments:write"] })).key);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await c("POST", "/api/v1/payments", { amount: `${i + 1}`, stablecoin: "USDC", chain: "base", toAddress: EVM });
        ids.unshift(r.json.id);
      }
      const first = await c("GET", "/api/v1/payments");
      expect(first.json).toMatchObject({ count: 12, limit: 10, offset: 0 });
      expect(first.json.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(0, 10));
      const second = await c("GET", "/api/v1/payments?offset=10");
      expect(second.json.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(10));
      const small = await c("GET", "/api/v1/payments?limit=3&offset=2");
      expect(small.json.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(2, 5));
    } finally {
      await s.close();
    }
  });

  it.each(["limit=101", "limit=0", "offset=-1", "limit=abc", "cursor=x"])("rejects ?%s with 400", async (query) => {
    const res = await call("GET", `/api/v1/payments?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_request");
  });

  it("answers 404 for a missing payment and for another organization's payment", async () => {
    expect((await call("GET", "/api/v1/payments/pay_missing")).status).toBe(404);
    const theirs = await otherOrg("POST", "/api/v1/payments", { amount: "1", stablecoin: "USDC", chain: "base", toAddress: EVM });
    const res = await call("GET", `/api/v1/payments/${theirs.json.id}`);
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: "not_found" });
  });
});

// A v1 payment's key is checked by its closing statement alone (keyCheckedAtClose, server/db/unit-of-work/run-unit.ts),
// unless its check at close failed on this instance before (server/db/unit-of-work/keys-to-read-first.ts): each way a
// key can have been met before must be answered as if it had been read first, whether the repeats come back to one
// instance (the first runs the work, fails the guard, then reads; the next read first) or reach another instance on
// the same database, which remembers nothing of the key.
describe.each([
  ["the same instance", false],
  ["another instance", true],
])("idempotent payment creation (optional Idempotency-Key), repeated on %s", (_where, elsewhere) => {
  let second: TestServer | undefined;
  /** The first request of a key. */
  let first: ReturnType<typeof api>;
  /** Its repeats. */
  let again: ReturnType<typeof api>;
  const tag = elsewhere ? "elsewhere" : "here";
  beforeAll(async () => {
    // An organization per mode: the lists below count this mode's payments only.
    const { key } = await server.createKey({ organizationId: `org_pay_${tag}`, scopes: ["payments:write", "wallets:write"] });
    first = api(server.url, key);
    if (elsewhere && onPostgres) second = await startTestServer({ sameDatabaseAs: server });
    // PGlite has one instance: there, the instance remembers no key, as another instance would not know it.
    else if (elsewhere) server.db.keysToReadFirst = new KeysToReadFirst(0);
    again = second ? api(second.url, key) : first;
  });
  afterAll(async () => {
    await second?.close();
    server.db.keysToReadFirst = new KeysToReadFirst();
  });

  it("replays the first response byte for byte and creates one payment", async () => {
    const body = { amount: "7.77", stablecoin: "USDC", chain: "base", toAddress: EVM };
    const headers = { "idempotency-key": `pay-once-1-${tag}` };
    const firstAnswer = await first("POST", "/api/v1/payments", body, headers);
    const secondAnswer = await again("POST", "/api/v1/payments", body, headers);
    expect(firstAnswer.status).toBe(201);
    expect(secondAnswer.status).toBe(201);
    expect(secondAnswer.text).toBe(firstAnswer.text);
    expect(secondAnswer.headers.get("idempotent-replayed")).toBe("true");
    expect(firstAnswer.headers.get("idempotent-replayed")).toBeNull();
    const list = await first("GET", "/api/v1/payments?limit=100");
    expect(list.json.data.filter((p: { amount: string }) => p.amount === "7.77")).toHaveLength(1);
  });

  it("refuses the same key with another body (422 idempotency_key_reused)", async () => {
    const headers = { "idempotency-key": `pay-once-2-${tag}` };
    await first("POST", "/api/v1/payments", { amount: "1", stablecoin: "USDC", chain: "base", toAddress: EVM }, headers);
    const res = await again("POST", "/api/v1/payments", { amount: "2", stablecoin: "USDC", chain: "base", toAddress: EVM }, headers);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe("idempotency_key_reused");
  });

  it("20 concurrent identical POSTs with one key (split over both instances when there are two): one payment, every answer the same bytes", async () => {
    const body = { amount: "7.78", stablecoin: "USDC", chain: "base", toAddress: EVM };
    const headers = { "idempotency-key": `pay-concurrent-1-${tag}` };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : again)("POST", "/api/v1/payments", body, headers)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    const list = await first("GET", "/api/v1/payments?limit=100");
    expect(list.json.data.filter((p: { amount: string }) => p.amount === "7.78")).toHaveLength(1);
  });

  it("stores a refused payment as the key's answer: the retry replays the 400, not a fresh run", async () => {
    const headers = { "idempotency-key": `pay-refused-1-${tag}` };
    const body = { amount: "0", stablecoin: "USDC", chain: "base", toAddress: EVM };
    const firstAnswer = await first("POST", "/api/v1/payments", body, headers);
    expect(firstAnswer.status).toBe(400);
    const retried = await again("POST", "/api/v1/payments", body, headers);
    expect(retried.status).toBe(400);
    expect(retried.text).toBe(firstAnswer.text);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
  });

  it("refuses a key first used on another operation (422), and writes nothing", async () => {
    const headers = { "idempotency-key": `pay-other-operation-1-${tag}` };
    expect((await first("POST", "/api/v1/wallets", { chain: "base", label: "key-first-here" }, headers)).status).toBe(201);
    const res = await again("POST", "/api/v1/payments", { amount: "7.79", stablecoin: "USDC", chain: "base", toAddress: EVM }, headers);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe("idempotency_key_reused");
    const list = await first("GET", "/api/v1/payments?limit=100");
    expect(list.json.data.filter((p: { amount: string }) => p.amount === "7.79")).toHaveLength(0);
  });
});

describe("payment helpers", () => {
  it("address validity helper agrees with the server on the fixtures", () => {
    expect(isValidAddress("base", EVM)).toBe(true);
    expect(isValidAddress("solana", SOL)).toBe(true);
  });
});
