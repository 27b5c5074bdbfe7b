// The pure rules of API keys' spending limits (issue 37): amounts exact to 18 places, which limit a call breaks, what a
// key may be created with.
import { describe, expect, it } from "vitest";
import {
  checkSpendingLimits,
  exceededLimit,
  fromUnits,
  minorToDecimal,
  normaliseAmount,
  spendingLimitError,
  toUnits,
} from "../../server/domain/spending-limits/spending-limit-rules.ts";

describe("amounts", () => {
  it.each([
    ["100", "100"],
    ["100.50", "100.5"],
    ["0.000000000000000001", "0.000000000000000001"],
    ["100.000000000000000000", "100"],
    ["0", "0"],
  ])("%s is %s in its shortest form", (given, shortest) => {
    expect(normaliseAmount(given)).toBe(shortest);
    expect(fromUnits(toUnits(given))).toBe(shortest);
  });

  it.each([
    ["2500000", 6, "2.5"],
    ["1", 18, "0.000000000000000001"],
    ["1000000000", 9, "1"],
    ["7", 0, "7"],
  ])("minor units %s with %i decimals are %s", (minor, decimals, decimal) => {
    expect(minorToDecimal(minor, decimals)).toBe(decimal);
  });

  it("refuses what is not a plain decimal (the contract lets none through)", () => {
    expect(() => toUnits("1e3")).toThrow();
    expect(() => toUnits("0.0000000000000000001")).toThrow();
  });
});

describe("exceededLimit", () => {
  const limit = { perCall: "100", per24h: "250" };
  it.each([
    ["within both", limit, "100", "100", null],
    ["exactly the 24 h limit", limit, "150", "100", null],
    ["one unit over per call", limit, "0", "100.000000000000000001", "perCall"],
    ["over the 24 h limit", limit, "150.5", "100", "per24h"],
    ["per call alone", { perCall: "5", per24h: null }, "1000000", "5", null],
    ["24 h alone", { perCall: null, per24h: "10" }, "9", "2", "per24h"],
    ["a zero limit", { perCall: "0", per24h: null }, "0", "0.01", "perCall"],
  ])("%s", (_name, given, used, requested, expected) => {
    expect(exceededLimit("USDC", given, toUnits(used), toUnits(requested))?.limit ?? null).toBe(expected);
  });

  it("an asset the key does not list has a maximum of 0, and the report says what was used and asked", () => {
    expect(exceededLimit("EURC", undefined, 0n, toUnits("1"))).toEqual({
      asset: "EURC",
      limit: "perCall",
      maximum: "0",
      used: "0",
      requested: "1",
    });
    expect(exceededLimit("USDC", limit, toUnits("200"), toUnits("60"))).toEqual({
      asset: "USDC",
      limit: "per24h",
      maximum: "250",
      used: "200",
      requested: "60",
    });
  });

  it("renders a 403 FORBIDDEN carrying the report as the spendingLimit extension", () => {
    const report = { asset: "USDC", limit: "per24h" as const, maximum: "250", used: "200", requested: "60" };
    const error = spendingLimitError(report);
    expect(error.status).toBe(403);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.extensions).toEqual({ spendingLimit: report });
    expect(error.message).toContain("24-hour limit of 250");
  });
});

describe("checkSpendingLimits", () => {
  it("normalises amounts and fills the limit left out with null", () => {
    expect(
      checkSpendingLimits([
        { asset: "USDC", perCall: "10.50" },
        { asset: "EUR", per24h: "1000.0" },
      ]),
    ).toEqual([
      { asset: "USDC", perCall: "10.5", per24h: null },
      { asset: "EUR", perCall: null, per24h: "1000" },
    ]);
    expect(checkSpendingLimits(undefined)).toEqual([]);
  });

  it.each([
    [
      "an asset twice",
      [
        { asset: "USDC", perCall: "1" },
        { asset: "USDC", per24h: "1" },
      ],
      "/body/spendingLimits/1/asset",
    ],
    ["no amount", [{ asset: "USDC" }], "/body/spendingLimits/0"],
  ])("refuses %s with a field error", (_name, input, path) => {
    expect(() => checkSpendingLimits(input)).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR", errors: [expect.objectContaining({ path })] }),
    );
  });
});
