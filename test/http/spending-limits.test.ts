// Spending limits on API keys (issue 37, item 8) over HTTP, on the database of the project (pglite / postgres): at most X
// per call and Y per rolling 24 h per asset, exact under 20 concurrent calls, a replay never counted twice, a key without
// limits as before, and every money-moving operation family refused with the `spendingLimit` extension.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNER } from "../helpers/contracts.ts";
import { corridor, SIMULATE } from "../helpers/corridors.ts";
import { joinMember } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_spend";
const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const HOLDER = "0x1111111111111111111111111111111111111111";
const payment = (amount: string, stablecoin = "USDC") => ({ amount, stablecoin, chain: "base", toAddress: EVM });

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function limitedKey(spendingLimits: { asset: string; perCall?: string; per24h?: string }[], scopes = ["payments:write"]) {
  const created = await server.createKey({ organizationId: ORG, scopes, spendingLimits });
  return { ...created, call: api(server.url, created.key) };
}

const spentRows = (apiKeyId: string) => server.db.prisma.apiKeySpend.findMany({ where: { apiKeyId } });

describe("the key carries its limits", () => {
  it("the admin API answers and lists them, amounts in their shortest form; a key without limits shows an empty list", async () => {
    const created = await server.createKey({
      organizationId: ORG,
      scopes: ["payments:write"],
      spendingLimits: [
        { asset: "USDC", perCall: "100.50", per24h: "1000" },
        { asset: "EUR", per24h: "250" },
      ],
    });
    expect((created as unknown as { spendingLimits: unknown }).spendingLimits).toEqual([
      { asset: "USDC", perCall: "100.5", per24h: "1000" },
      { asset: "EUR", perCall: null, per24h: "250" },
    ]);
    await server.createKey({ organizationId: ORG, scopes: ["payments:write"] });
    const list = await api(server.url, server.adminToken)("GET", `/api/admin/keys?organizationId=${ORG}`);
    const byId = new Map(list.json.data.map((k: { id: string }) => [k.id, k]));
    expect((byId.get(created.id) as { spendingLimits: unknown }).spendingLimits).toEqual([
      { asset: "EUR", perCall: null, per24h: "250" },
      { asset: "USDC", perCall: "100.5", per24h: "1000" },
    ]);
    expect(list.json.data.filter((k: { spendingLimits: unknown[] }) => k.spendingLimits.length === 0).length).toBeGreaterThan(0);
  });

  it("a member creates a key with limits in the key API; it is shown on the key and in the list", async () => {
    const owner = await joinMember(server, ORG, { role: "owner" });
    const created = await owner.call("POST", "/api/v2/agent/api-keys", {
      environment: "sandbox",
      scopes: ["payments:write"],
      label: "Shopping agent",
      spendingLimits: [{ asset: "USDC", perCall: "25", per24h: "100" }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.spendingLimits).toEqual([{ asset: "USDC", perCall: "25", per24h: "100" }]);
    const read = await owner.call("GET", `/api/v2/agent/api-keys/${created.json.id}`);
    expect(read.json.spendingLimits).toEqual([{ asset: "USDC", perCall: "25", per24h: "100" }]);
    const listed = await owner.call("GET", "/api/v2/agent/api-keys");
    expect(listed.json.data.find((k: { id: string }) => k.id === created.json.id).spendingLimits).toEqual(read.json.spendingLimits);
    // The member's key is limited like the operator's: 30 USDC is past its per-call limit.
    const paid = await api(server.url, created.json.secret)("POST", "/api/v1/payments", payment("30"));
    expect(paid.status).toBe(403);
    expect(paid.json.spendingLimit).toMatchObject({ limit: "perCall", maximum: "25" });
  });

  it.each([
    [
      "an asset listed twice",
      [
        { asset: "USDC", perCall: "1" },
        { asset: "USDC", per24h: "2" },
      ],
    ],
    ["a limit with neither amount", [{ asset: "USDC" }]],
    ["an amount with an exponent", [{ asset: "USDC", perCall: "1e3" }]],
    ["a negative amount", [{ asset: "USDC", perCall: "-1" }]],
  ])("refuses %s with 400 and creates no key", async (_name, spendingLimits) => {
    const before = await server.db.prisma.apiKey.count({ where: { organizationId: ORG } });
    const res = await api(server.url, server.adminToken)("POST", "/api/admin/keys", {
      organizationId: ORG,
      environment: "sandbox",
      scopes: ["payments:write"],
      spendingLimits,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.code).toBe("invalid_request");
    expect(await server.db.prisma.apiKey.count({ where: { organizationId: ORG } })).toBe(before);
  });
});

describe("v1 payments under a limit", () => {
  it("refuses a call over the per-call limit with 403 forbidden and spendingLimit, and moves nothing", async () => {
    const { id, call } = await limitedKey([{ asset: "USDC", perCall: "100", per24h: "1000" }]);
    const ok = await call("POST", "/api/v1/payments", payment("100"));
    expect(ok.status, ok.text).toBe(201);
    const res = await call("POST", "/api/v1/payments", payment("100.000001"));
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      code: "forbidden",
      spendingLimit: { asset: "USDC", limit: "perCall", maximum: "100", used: "100", requested: "100.000001" },
    });
    expect((await spentRows(id)).map((r) => r.amount.toFixed())).toEqual(["100"]);
  });

  it("refuses the call that would pass the rolling 24 h limit; spends older than 24 h no longer count", async () => {
    const { id, call } = await limitedKey([{ asset: "USDC", per24h: "50" }]);
    expect((await call("POST", "/api/v1/payments", payment("30"))).status).toBe(201);
    expect((await call("POST", "/api/v1/payments", payment("20"))).status).toBe(201);
    const over = await call("POST", "/api/v1/payments", payment("0.01"));
    expect(over.status).toBe(403);
    expect(over.json.spendingLimit).toEqual({ asset: "USDC", limit: "per24h", maximum: "50", used: "50", requested: "0.01" });
    // A day later the first spend leaves the window: 30 is free again.
    await server.db.prisma.apiKeySpend.updateMany({
      where: { apiKeyId: id, amount: "30" },
      data: { createdAt: new Date(Date.now() - 24 * 3600 * 1000 - 1000) },
    });
    expect((await call("POST", "/api/v1/payments", payment("30"))).status).toBe(201);
    expect((await call("POST", "/api/v1/payments", payment("0.01"))).status).toBe(403);
  });

  it("refuses an asset the key does not list (its maximum is 0); other keys' spends do not count", async () => {
    const { call } = await limitedKey([{ asset: "USDC", per24h: "10" }]);
    const res = await call("POST", "/api/v1/payments", payment("1", "USDT"));
    expect(res.status).toBe(403);
    expect(res.json.spendingLimit).toEqual({ asset: "USDT", limit: "perCall", maximum: "0", used: "0", requested: "1" });
    const other = await limitedKey([{ asset: "USDC", per24h: "10" }]);
    expect((await other.call("POST", "/api/v1/payments", payment("10"))).status).toBe(201);
    expect((await call("POST", "/api/v1/payments", payment("10"))).status).toBe(201);
  });

  it("20 concurrent calls never overspend: exactly as many succeed as the 24 h limit allows", async () => {
    const { id, call } = await limitedKey([{ asset: "USDC", per24h: "70" }]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/v1/payments", payment("10"), idem())));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s === 403)).toHaveLength(13);
    const spent = (await spentRows(id)).reduce((sum, r) => sum + Number(r.amount.toFixed()), 0);
    expect(spent).toBe(70);
    expect(
      await server.db.prisma.payment.count({ where: { id: { in: answers.filter((a) => a.status === 201).map((a) => a.json.id) } } }),
    ).toBe(7);
  });

  it("a replay of the same Idempotency-Key answers the stored payment and is not counted again", async () => {
    const { id, call } = await limitedKey([{ asset: "USDC", per24h: "15" }]);
    const headers = { "idempotency-key": randomUUID() };
    const first = await call("POST", "/api/v1/payments", payment("10"), headers);
    expect(first.status).toBe(201);
    const again = await call("POST", "/api/v1/payments", payment("10"), headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.id).toBe(first.json.id);
    expect(await spentRows(id)).toHaveLength(1);
    // 5 is left, not 0 as it would be had the replay counted.
    expect((await call("POST", "/api/v1/payments", payment("5"))).status).toBe(201);
    // A refusal is the key's answer too: its replay is the same 403.
    const refusedKey = { "idempotency-key": randomUUID() };
    const refused = await call("POST", "/api/v1/payments", payment("1"), refusedKey);
    expect(refused.status).toBe(403);
    const refusedAgain = await call("POST", "/api/v1/payments", payment("1"), refusedKey);
    expect(refusedAgain.text).toBe(refused.text);
  });

  it("a key without limits behaves as before: no spend recorded, any amount of any asset", async () => {
    const created = await server.createKey({ organizationId: ORG, scopes: ["payments:write"] });
    const call = api(server.url, created.key);
    expect((await call("POST", "/api/v1/payments", payment("1000000"))).status).toBe(201);
    expect((await call("POST", "/api/v1/payments", payment("5", "DAI"))).status).toBe(201);
    expect(await spentRows(created.id)).toHaveLength(0);
  });
});

describe("every money-moving operation counts against the key", () => {
  // A key whose only limit is on another asset: each call below is refused by its spending limit before anything else
  // happens, so the bodies need only be valid.
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    ({ call } = await limitedKey([{ asset: "XYZ", perCall: "1" }], ["payments:write", "wallets:write", "cards:write"]));
    await server.db.prisma.issuer.create({
      data: {
        id: "iss_spend",
        organizationId: ORG,
        environment: "sandbox",
        projectId: "cprj_spend",
        contractAddress: "0x000000000000000000000000000000000000dEaD",
        chain: "sandbox",
        asset: "SPND",
        decimals: 6,
        signers: [SIGNER],
      },
    });
  });

  it.each([
    [
      "bank transfer",
      "/api/v2/agent/payments/bank-transfer",
      {
        amount: "1250.00",
        currency: "EUR",
        source: { type: "iban", iban: "DE89370400440532013000", bic: "COBADEFFXXX", accountHolderName: "Acme Trading GmbH", country: "DE" },
        destination: {
          type: "iban",
          iban: "FR1420041010050500013M02606",
          bic: "PSSTFRPPXXX",
          accountHolderName: "Dupont SARL",
          country: "FR",
        },
        rail: "sepa",
        senderJurisdiction: "DE",
        receiverJurisdiction: "FR",
      },
      { asset: "EUR", requested: "1250" },
    ],
    ["corridor run", SIMULATE, corridor(), { asset: "EUR", requested: "1000" }],
    [
      "custody transfer",
      "/api/v2/agent/custody/transfers",
      { walletId: "cw_000000000000000000000000", destination: EVM, asset: "USDC", amountMinor: "2500000" },
      { asset: "USDC", requested: "2.5" },
    ],
    ["card funding", "/api/v2/agent/cards/card_spend0001/fund", { amount: "5.00", asset: "USDC" }, { asset: "USDC", requested: "5" }],
    [
      "mint",
      "/api/v2/agent/treasury/mint",
      { issuerId: "iss_spend", amountMinor: "250000000", signerAddress: SIGNER, to: HOLDER },
      { asset: "SPND", requested: "250" },
    ],
  ])("%s: 403 FORBIDDEN with spendingLimit", async (_family, path, body, expected) => {
    const res = await call("POST", path, body, idem());
    expect(res.status, res.text).toBe(403);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.json).toMatchObject({ code: "FORBIDDEN", spendingLimit: { ...expected, limit: "perCall", maximum: "0", used: "0" } });
  });

  it("a mint within the limit is recorded and counted in the issuer's token", async () => {
    const { id, call: minter } = await limitedKey([{ asset: "SPND", perCall: "300", per24h: "400" }], ["wallets:write"]);
    const body = { issuerId: "iss_spend", amountMinor: "250000000", signerAddress: SIGNER, to: HOLDER };
    const first = await minter("POST", "/api/v2/agent/treasury/mint", body, idem());
    expect(first.status, first.text).toBe(201);
    expect((await spentRows(id)).map((r) => [r.asset, r.amount.toFixed()])).toEqual([["SPND", "250"]]);
    const second = await minter("POST", "/api/v2/agent/treasury/mint", body, idem());
    expect(second.status).toBe(403);
    expect(second.json.spendingLimit).toEqual({ asset: "SPND", limit: "per24h", maximum: "400", used: "250", requested: "250" });
  });

  it("a bank transfer within the limit is counted in its currency", async () => {
    const { id, call: payer } = await limitedKey([{ asset: "EUR", per24h: "2000" }]);
    const body = {
      amount: "1250.00",
      currency: "EUR",
      source: { type: "iban", iban: "DE89370400440532013000", bic: "COBADEFFXXX", accountHolderName: "Acme Trading GmbH", country: "DE" },
      destination: {
        type: "iban",
        iban: "FR1420041010050500013M02606",
        bic: "PSSTFRPPXXX",
        accountHolderName: "Dupont SARL",
        country: "FR",
      },
      rail: "sepa",
      senderJurisdiction: "DE",
      receiverJurisdiction: "FR",
    };
    const res = await payer("POST", "/api/v2/agent/payments/bank-transfer", body, idem());
    expect(res.status, res.text).toBe(201);
    expect((await spentRows(id)).map((r) => r.amount.toFixed())).toEqual(["1250"]);
    const over = await payer("POST", "/api/v2/agent/payments/bank-transfer", body, idem());
    expect(over.status).toBe(403);
    expect(over.json.spendingLimit).toMatchObject({ limit: "per24h", used: "1250", requested: "1250" });
  });
});
