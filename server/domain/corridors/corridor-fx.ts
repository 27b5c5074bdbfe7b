// The corridor's FX leg: source currency → stablecoin → payout currency. With a reviewed fx connection its `quote`
// operation prices both conversions; otherwise the local fallback uses the fixed sandbox rate table
// (server/domain/compliance/usd-rates.ts). Exact BigInt arithmetic, amounts truncated to each currency's digits.

import { ASSET_DECIMALS } from "../../lib/chains/chain-assets.ts";
import { parseDecimalToMinor } from "../../lib/money/minor-units.ts";
import { currencyDigits, formatCurrencyAmount } from "../bank-transfers/bank-rails.ts";
import { SANDBOX_USD_RATES } from "../compliance/usd-rates.ts";
import { minorToAmount } from "../custody/custody-assets.ts";

export interface FxLeg {
  rate: string;
  sourceAmount: string;
  sourceCurrency: string;
  stablecoinAmount: string;
  /** Minor units of the stablecoin (what the custody leg sends). */
  stablecoinMinor: string;
  payoutAmount: string;
  payoutCurrency: string;
  expiresAt: string;
}

const E18 = 10n ** 18n;
const usd18 = (currency: string): bigint | null => {
  const rate = SANDBOX_USD_RATES[currency];
  return rate === undefined ? null : (parseDecimalToMinor(rate, 18) as bigint);
};

export const hasLocalRate = (currency: string) => SANDBOX_USD_RATES[currency] !== undefined;

/** Local fallback quote; null when a currency has no sandbox rate. Quotes are valid for 5 minutes. */
export function localQuote(input: { amount: string; currency: string; asset: string; payoutCurrency: string; now: Date }): FxLeg | null {
  const { amount, currency, asset, payoutCurrency, now } = input;
  const source = usd18(currency);
  const payout = usd18(payoutCurrency);
  const coin = usd18(asset);
  const amount18 = parseDecimalToMinor(amount, 18);
  if (source === null || payout === null || coin === null || amount18 === null) return null;
  const decimals = ASSET_DECIMALS[asset] ?? 6;
  // stablecoin = amount × usd(source) / usd(asset), in the asset's minor units
  const stablecoinMinor = (amount18 * source * 10n ** BigInt(decimals)) / (coin * E18);
  return finish({ amount, currency, asset, payoutCurrency, now, stablecoinMinor, coin, payout, source });
}

/** Completes a quote from the stablecoin amount: payout = stablecoin × usd(asset) / usd(payout), truncated. */
export function finish(input: {
  amount: string;
  currency: string;
  asset: string;
  payoutCurrency: string;
  now: Date;
  stablecoinMinor: bigint;
  coin: bigint;
  payout: bigint;
  source: bigint;
}): FxLeg {
  const { amount, currency, asset, payoutCurrency, now, stablecoinMinor, coin, payout, source } = input;
  const decimals = ASSET_DECIMALS[asset] ?? 6;
  const digits = currencyDigits(payoutCurrency);
  const payoutMinor = (stablecoinMinor * coin * 10n ** BigInt(digits)) / (payout * 10n ** BigInt(decimals));
  return {
    rate: minorToAmount((source * 1_000_000n) / payout, 6),
    sourceAmount: amount,
    sourceCurrency: currency,
    stablecoinAmount: minorToAmount(stablecoinMinor, decimals),
    stablecoinMinor: stablecoinMinor.toString(),
    payoutAmount: formatCurrencyAmount(payoutMinor, payoutCurrency),
    payoutCurrency,
    expiresAt: new Date(now.getTime() + 5 * 60_000).toISOString(),
  };
}

export const usdRate18 = usd18;
