// The sandbox fee schedule (documented on Payment.fees in the spec): a flat network fee per chain plus 0.10% of the
// amount, rounded half-up to 6 decimal places.

import { rescaleMinor } from "../../lib/money/minor-units.ts";
import type { Chain } from "../chains/addresses.ts";

export const FEE_DECIMALS = 6;
const FLAT_FEE_MICROS: Record<Chain, bigint> = { ethereum: 500_000n, polygon: 10_000n, base: 20_000n, solana: 1_000n };
const PERCENT_FEE_BASIS_POINTS = 10n; // 0.10%

/** Fee in units of 10^-6 for an amount given in minor units with `amountDecimals` places. */
export function sandboxFeeMicros(chain: Chain, amountMinor: bigint, amountDecimals: number): bigint {
  // amount × 10 bp, kept at amountDecimals + 4 places, then rounded half-up to 6 places.
  const percentFee = rescaleMinor(amountMinor * PERCENT_FEE_BASIS_POINTS, amountDecimals + 4, FEE_DECIMALS);
  return FLAT_FEE_MICROS[chain] + percentFee;
}
