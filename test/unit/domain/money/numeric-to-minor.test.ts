// Money read back from numeric columns, and the USD value of the sandbox stablecoins (design.md: stablecoins at 1.00,
// kept at 18 decimal places). The parse/format/rescale rules are covered in test/unit/minor-units.test.ts.
import { describe, expect, it } from "vitest";
import { ASSET_DECIMALS, type Stablecoin, toUsdMinor, USD_DECIMALS } from "../../../../server/domain/money/assets.ts";
import { numericToMinor } from "../../../../server/lib/money/minor-units.ts";

describe("numericToMinor: a numeric column's text as minor units, half-up away from zero", () => {
  it.each([
    // text, decimals, minor
    ["1000", 0, 1000n],
    ["1000", 6, 1_000_000_000n],
    ["125.500000000000000000", 6, 125_500_000n],
    ["125.5", 2, 12_550n],
    ["0", 6, 0n],
    ["0.0000005", 6, 1n], // exactly half a micro-unit rounds up
    ["0.00000049", 6, 0n], // just under half rounds down
    ["2.5", 0, 3n], // half-up, not half-even
    ["3.5", 0, 4n],
    ["-2.5", 0, -3n], // away from zero for negatives
    ["-0.0000005", 6, -1n],
    ["-125.50", 6, -125_500_000n],
    ["007", 0, 7n], // leading zeros as PostgreSQL never prints them, still exact
  ])("%s with %i decimals → %s", (text, decimals, minor) => {
    expect(numericToMinor(text, decimals)).toBe(minor);
  });

  it.each([["1e3"], ["NaN"], [""], ["1.2.3"], [" 1"], ["+1"], ["Infinity"]])("throws on %j (not a numeric column value)", (text) => {
    expect(() => numericToMinor(text, 6)).toThrow(/not a numeric value/);
  });
});

describe("toUsdMinor: every sandbox stablecoin is worth 1.00 USD at 18 decimals", () => {
  it("keeps USD at 18 decimals", () => {
    expect(USD_DECIMALS).toBe(18);
  });

  it.each<[Stablecoin, bigint, bigint]>([
    ["USDC", 1n, 10n ** 12n], // 0.000001 USDC = 0.000001 USD
    ["USDT", 1_000_000n, 10n ** 18n], // 1 USDT = 1 USD
    ["DAI", 10n ** 18n, 10n ** 18n], // DAI already has 18 decimals
    ["DAI", 1n, 1n],
    ["USDC", 0n, 0n],
    ["USDC", 1000n * 10n ** 6n, 1000n * 10n ** 18n], // the sandbox test funds of one asset
  ])("%s %s minor → %s USD minor", (asset, minor, usd) => {
    expect(toUsdMinor(asset, minor)).toBe(usd);
  });

  it.each(Object.keys(ASSET_DECIMALS) as Stablecoin[])("one whole %s is exactly 1 USD", (asset) => {
    expect(toUsdMinor(asset, 10n ** BigInt(ASSET_DECIMALS[asset]))).toBe(10n ** 18n);
  });
});
