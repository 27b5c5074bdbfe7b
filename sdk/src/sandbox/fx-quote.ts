// The sandbox FX quote (providers/invoke `category: fx`, `operation: quote`), shared by the server's FX simulator and
// the partner mock: rate = USD value of the sell currency ÷ USD value of the buy currency (one table, usd-rates.ts),
// less the connection's spread, shown to 6 places; buyAmount = sellAmount × the unrounded net rate, to 2 places; half
// up. Pure (no import outside this folder), so the SDK package carries it.
import { SANDBOX_USD_RATES } from "./usd-rates.ts";

/** The quote's input schema: an unknown currency, a malformed amount or another member → 400 INVALID_INPUT. */
export const FX_QUOTE_INPUT_SCHEMA = {
  type: "object",
  required: ["sellCurrency", "buyCurrency", "sellAmount"],
  additionalProperties: false,
  properties: {
    sellCurrency: { enum: Object.keys(SANDBOX_USD_RATES) },
    buyCurrency: { enum: Object.keys(SANDBOX_USD_RATES) },
    sellAmount: { type: "string", pattern: "^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,6})?$" },
  },
} as const;

/** The simulator's magic amount: the quote fails as a provider would (502 PROVIDER_EXECUTION_FAILED). */
export const FX_FAILING_AMOUNT = "666.66";

export interface FxQuoteInput {
  sellCurrency: string;
  buyCurrency: string;
  sellAmount: string;
}

const SCALE = 10n ** 18n;
const toScaled = (decimal: string) => {
  const [whole, fraction = ""] = decimal.split(".");
  return BigInt(whole as string) * SCALE + BigInt(fraction.padEnd(18, "0").slice(0, 18));
};
const fromScaled = (value: bigint, places: number) => {
  const rounded = (value + 10n ** BigInt(18 - places) / 2n) / 10n ** BigInt(18 - places);
  const text = rounded.toString().padStart(places + 1, "0");
  return `${text.slice(0, -places)}.${text.slice(-places)}`;
};

/** The quote's rate and buy amount (the input is valid for FX_QUOTE_INPUT_SCHEMA); `spreadBps` 0–1000, default none. */
export function fxQuote(input: FxQuoteInput, spreadBps = 0): { rate: string; buyAmount: string } {
  const rate =
    (toScaled(SANDBOX_USD_RATES[input.sellCurrency] as string) * SCALE) / toScaled(SANDBOX_USD_RATES[input.buyCurrency] as string);
  const net = (rate * (10_000n - BigInt(spreadBps))) / 10_000n;
  const buy = (toScaled(input.sellAmount) * net) / SCALE;
  return { rate: fromScaled(net, 6), buyAmount: fromScaled(buy, 2) };
}
