// Stress-test rules 1–4 of the description, each on its own: (1) total supply is read on chain; (2) the reserve ratio
// is scenario.reserveRatio when supplied, else the connected token_issuance source's; (3) with neither, 424
// RESERVE_SOURCE_NOT_CONNECTED (never estimated); (4) peg price is not used.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedToken, launchToken, TREASURY } from "../helpers/contracts.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect } from "../helpers/v2.ts";

const PATH = "/api/v2/agent/treasury/stress-test";
let server: TestServer;
let issuer: ReturnType<typeof api>;
let token: LaunchedToken;
let small: LaunchedToken;

/** A key of an organization with (or without) a connected reserve source reporting `reserveRatio`. */
async function orgKey(organizationId: string, reserve?: Record<string, string>) {
  if (reserve) await connect(server, { organizationId, category: "token_issuance", config: reserve });
  return api(server.url, (await server.createKey({ organizationId, scopes: ["wallets:write"] })).key);
}

beforeAll(async () => {
  server = await startTestServer();
  issuer = api(server.url, (await server.createKey({ scopes: ["projects:write", "wallets:write"] })).key);
  token = await launchToken(issuer); // 1,000,000.000000 on chain
  small = await launchToken(issuer, { asset: "SMALL", initialSupply: { to: TREASURY, amountMinor: "3000000" } });
}, 120_000);
afterAll(() => server?.close());

describe("rule 1: total supply is read on chain", () => {
  it("uses each token's on-chain totalSupply() and says which reader at which block", async () => {
    const key = await orgKey("org_rule1");
    for (const [t, supply] of [
      [token, "1000000000000"],
      [small, "3000000"],
    ] as const) {
      const res = await key("POST", PATH, {
        contractAddress: t.contractAddress,
        scenario: { reserveRatio: "1", redemptionShockPercent: "10" },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.inputs).toMatchObject({ totalSupplyMinor: supply, decimals: 6, totalSupplySource: "chain_read:sandbox" });
      expect(res.json.inputs.blockNumber).toBeGreaterThan(0);
      expect(res.json.results.redemptionsMinor).toBe((BigInt(supply) / 10n).toString());
      expect(res.json.asset).toBe(t.asset);
    }
  });
});

describe("rule 2: the reserve ratio is scenario.reserveRatio when supplied, else the connected reserve source's", () => {
  it("scenario.reserveRatio wins over a connected source; reserveRatioSource is `scenario` and simulated is false", async () => {
    const key = await orgKey("org_rule2a", { reserveRatio: "0.5" });
    const res = await key("POST", PATH, {
      contractAddress: token.contractAddress,
      chain: "sandbox",
      asset: "CPUSD",
      scenario: { reserveRatio: "1.02", redemptionShockPercent: "25", reserveHaircutPercent: "1", horizonDays: 30 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.inputs).toMatchObject({ reserveRatio: "1.02", reserveRatioSource: "scenario" });
    expect(res.json.inputs.scenario).toEqual({
      reserveRatio: "1.02",
      redemptionShockPercent: "25",
      reserveHaircutPercent: "1",
      pegDeviation: "0",
      horizonDays: 30,
    });
    expect(res.json.simulated).toBe(false);
    // The spec's worked example: S = 1,000,000, r = 1.02, 1 % haircut, 25 % redemptions.
    expect(res.json.results).toEqual({
      reservesBeforeShockMinor: "1020000000000",
      reserveHaircutMinor: "10200000000",
      redemptionsMinor: "250000000000",
      redemptionsPaidMinor: "250000000000",
      averageDailyRedemptionsMinor: "8333333333",
      reservesAfterShockMinor: "759800000000",
      supplyAfterShockMinor: "750000000000",
      coverageRatioAfterShock: "1.013066",
      solvent: true,
      shortfallMinor: "0",
    });
  });

  it("without scenario.reserveRatio the sandbox reserve source's ratio is used; reserveRatioSource names it and simulated is true", async () => {
    const key = await orgKey("org_rule2b", { reserveRatio: "1.02" });
    const res = await key("POST", PATH, {
      contractAddress: token.contractAddress,
      scenario: { redemptionShockPercent: "40", reserveHaircutPercent: "5", pegDeviation: "-0.03", horizonDays: 14 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.inputs).toMatchObject({ reserveRatio: "1.02", reserveRatioSource: "token_issuance:sandbox" });
    expect(res.json.inputs.scenario.reserveRatio).toBeNull();
    expect(res.json.simulated).toBe(true);
    expect(res.json.results).toMatchObject({
      reservesBeforeShockMinor: "1020000000000",
      reserveHaircutMinor: "51000000000",
      redemptionsPaidMinor: "400000000000",
      averageDailyRedemptionsMinor: "28571428571",
      reservesAfterShockMinor: "569000000000",
      supplyAfterShockMinor: "600000000000",
      coverageRatioAfterShock: "0.948333",
      solvent: false,
      shortfallMinor: "31000000000",
    });
  });

  it("redemptions beyond the reserves are paid only as far as the reserves go", async () => {
    const key = await orgKey("org_rule2c");
    const res = await key("POST", PATH, {
      contractAddress: token.contractAddress,
      scenario: { reserveRatio: "0.5", redemptionShockPercent: "80", reserveHaircutPercent: "10" },
    });
    expect(res.json.results).toMatchObject({
      reservesBeforeShockMinor: "500000000000",
      reserveHaircutMinor: "50000000000",
      redemptionsMinor: "800000000000",
      redemptionsPaidMinor: "450000000000",
      reservesAfterShockMinor: "0",
      supplyAfterShockMinor: "550000000000",
      coverageRatioAfterShock: "0.000000",
      solvent: false,
      shortfallMinor: "550000000000",
    });
  });
});

describe("rule 3: with neither, 424 RESERVE_SOURCE_NOT_CONNECTED; the ratio is never estimated", () => {
  it("answers 424 in the sandbox (there is no reserve-source fallback), even though total supply is readable", async () => {
    const key = await orgKey("org_rule3");
    const res = await key("POST", PATH, { contractAddress: token.contractAddress, scenario: { redemptionShockPercent: "10" } });
    expect(res.status).toBe(424);
    expect(res.json.code).toBe("RESERVE_SOURCE_NOT_CONNECTED");
    // An unreviewed connection is not a connected source either.
    await connect(server, { organizationId: "org_rule3", category: "token_issuance", reviewed: false, config: { reserveRatio: "1.5" } });
    expect((await key("POST", PATH, { contractAddress: token.contractAddress, scenario: { redemptionShockPercent: "10" } })).status).toBe(
      424,
    );
    // Supplying the ratio is enough.
    const supplied = await key("POST", PATH, {
      contractAddress: token.contractAddress,
      scenario: { reserveRatio: "1", redemptionShockPercent: "10" },
    });
    expect(supplied.status).toBe(200);
  });
});

describe("rule 4: peg price is not used", () => {
  it("neither scenario.pegDeviation nor a peg price reported by the source changes the results", async () => {
    const plain = await orgKey("org_rule4a", { reserveRatio: "1.1" });
    const withPeg = await orgKey("org_rule4b", { reserveRatio: "1.1", pegPrice: "0.50" });
    const body = (pegDeviation: string) => ({
      contractAddress: token.contractAddress,
      scenario: { redemptionShockPercent: "30", reserveHaircutPercent: "2", pegDeviation },
    });
    const baseline = await plain("POST", PATH, body("0"));
    expect(baseline.status, baseline.text).toBe(200);
    for (const [key, deviation] of [
      [plain, "-0.5"],
      [plain, "0.25"],
      [withPeg, "0"],
      [withPeg, "-0.99"],
    ] as const) {
      const res = await key("POST", PATH, body(deviation));
      expect(res.status).toBe(200);
      expect(res.json.results).toEqual(baseline.json.results);
      expect(res.json.inputs.scenario.pegDeviation).toBe(deviation);
      expect(JSON.stringify(res.json)).not.toContain("pegPrice");
    }
  });
});
