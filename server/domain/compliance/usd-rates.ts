// The per-operation amount limit converts with the sandbox's one USD rate table (sdk/src/sandbox/usd-rates.ts).
// Stablecoins and USD count 1:1. A currency missing here cannot be converted,
// and the policy blocks it (`policy.currency_unsupported`) rather than skip the limit.
import { SANDBOX_USD_RATES } from "../../../sdk/src/sandbox/usd-rates.ts";
import { formatMinor, parseDecimalToMinor } from "../../lib/money/minor-units.ts";

/** The sandbox's one USD rate table (shared with the FX simulator and the partner mock). */
export { SANDBOX_USD_RATES };

/** Fixed point of amounts, rates and limits. */
export const POLICY_DECIMALS = 18;

export type UsdConversion = { kind: "ok"; usdMinor: bigint } | { kind: "unsupported_currency" } | { kind: "invalid_amount" };

/** Converts a decimal amount to USD minor units with 36 decimals (exact: amount × rate, no rounding). */
export function toUsdMinor36(value: string, currency: string): UsdConversion {
  const rate = SANDBOX_USD_RATES[currency.toUpperCase()];
  if (rate === undefined) return { kind: "unsupported_currency" };
  const amount = parseDecimalToMinor(value, POLICY_DECIMALS);
  if (amount === null) return { kind: "invalid_amount" };
  return { kind: "ok", usdMinor: amount * (parseDecimalToMinor(rate, POLICY_DECIMALS) as bigint) };
}

/** A 36-decimal USD amount as a decimal string with at most 18 places, e.g. "1350.00" (truncated, for display). */
export function formatUsd36(usdMinor36: bigint): string {
  return formatMinor(usdMinor36 / 10n ** BigInt(POLICY_DECIMALS), POLICY_DECIMALS);
}
