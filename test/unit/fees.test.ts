import { describe, expect, it } from "vitest";
import type { Chain } from "../../server/domain/chains/addresses.ts";
import { ASSET_DECIMALS, type Stablecoin } from "../../server/domain/money/assets.ts";
import { FEE_DECIMALS, sandboxFeeMicros } from "../../server/domain/payments/fees.ts";
import { formatMinor, parseDecimalToMinor } from "../../server/lib/money/minor-units.ts";

const fee = (chain: Chain, amount: string, asset: Stablecoin) => {
  const decimals = ASSET_DECIMALS[asset];
  return formatMinor(sandboxFeeMicros(chain, parseDecimalToMinor(amount, decimals) as bigint, decimals), FEE_DECIMALS);
};

describe("sandboxFeeMicros: flat network fee per chain + 0.10%, half-up to 6 decimal places", () => {
  it("works in 10^-6 units", () => {
    expect(FEE_DECIMALS).toBe(6);
  });

  it.each([
    // chain, amount, asset, fee
    ["ethereum", "0.000001", "USDC", "0.50"],
    ["polygon", "0.000001", "USDC", "0.01"],
    ["base", "0.000001", "USDC", "0.02"],
    ["solana", "0.000001", "USDC", "0.001"],
    ["base", "125.50", "USDC", "0.1455"],
    ["ethereum", "100", "USDT", "0.60"],
    ["solana", "1", "DAI", "0.002"],
    ["polygon", "1000000", "USDC", "1000.01"],
    ["base", "999999999999999999.999999", "USDT", "1000000000000000.02"],
  ] as const)("%s %s %s → %s", (chain, amount, asset, expected) => {
    expect(fee(chain, amount, asset)).toBe(expected);
  });

  it.each([
    // the 0.10% part lands exactly on, just below and just above half a micro-unit
    ["0.0005", "USDC", "0.020001"],
    ["0.000499", "USDC", "0.02"],
    ["0.0015", "USDC", "0.020002"],
    ["0.0005", "DAI", "0.020001"],
    ["0.000499999999999999", "DAI", "0.02"],
    ["0.000000000000000001", "DAI", "0.02"],
  ] as const)("rounds the percentage half-up: %s %s on base → %s", (amount, asset, expected) => {
    expect(fee("base", amount, asset)).toBe(expected);
  });
});
