// Static sandbox FX table for the per-operation amount limit. Not market data: fixed reference rates so that limits
// behave deterministically in the sandbox. Stablecoins and USD count 1:1. A currency missing here cannot be converted,
// and the policy blocks it (`policy.currency_unsupported`) rather than skip the limit.
import { formatMinor, parseDecimalToMinor } from "../../lib/money/minor-units.ts";

/** USD value of one unit of each currency, as decimal strings. */
export const SANDBOX_USD_RATES: Readonly<Record<string, string>> = {
  USD: "1",
  USDC: "1",
  USDT: "1",
  DAI: "1",
  PYUSD: "1",
  EURC: "1.08",
  EUR: "1.08",
  GBP: "1.27",
  CHF: "1.13",
  CAD: "0.73",
  AUD: "0.66",
  NZD: "0.60",
  SGD: "0.74",
  HKD: "0.128",
  JPY: "0.0067",
  CNY: "0.14",
  INR: "0.012",
  AED: "0.2723",
  SEK: "0.095",
  NOK: "0.093",
  DKK: "0.145",
  PLN: "0.25",
  MXN: "0.058",
  BRL: "0.20",
  ZAR: "0.055",
};

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
