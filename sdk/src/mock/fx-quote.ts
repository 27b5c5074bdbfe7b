// The FX quote of providers/invoke (`category: fx`, `operation: quote`), computed from the input as the sandbox FX
// simulator computes it (server/providers/simulators/fx-simulator.ts, no spread): rate = USD value of the sell currency
// ÷ USD value of the buy currency, both from a fixed table, shown to 6 places; buyAmount = sellAmount × the unrounded
// rate, to 2 places; half up. test/sdk/mock-parity.test.ts compares table and results with the simulator.

/** USD value of one unit; stablecoins at par. */
export const SANDBOX_FX_USD_RATES: Readonly<Record<string, string>> = {
  USD: "1",
  USDC: "1",
  USDT: "1",
  DAI: "1",
  EUR: "1.08",
  GBP: "1.27",
  CHF: "1.13",
  JPY: "0.0067",
  SGD: "0.74",
  BRL: "0.18",
  MXN: "0.055",
};

/** The simulator's input schema: an unknown currency, a malformed amount or another member → 400 INVALID_INPUT. */
export const FX_QUOTE_INPUT_SCHEMA = {
  type: "object",
  required: ["sellCurrency", "buyCurrency", "sellAmount"],
  additionalProperties: false,
  properties: {
    sellCurrency: { enum: Object.keys(SANDBOX_FX_USD_RATES) },
    buyCurrency: { enum: Object.keys(SANDBOX_FX_USD_RATES) },
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

/** The quote's rate and buy amount (the input is valid for FX_QUOTE_INPUT_SCHEMA). */
export function fxQuote(input: FxQuoteInput): { rate: string; buyAmount: string } {
  const rate =
    (toScaled(SANDBOX_FX_USD_RATES[input.sellCurrency] as string) * SCALE) / toScaled(SANDBOX_FX_USD_RATES[input.buyCurrency] as string);
  const buy = (toScaled(input.sellAmount) * rate) / SCALE;
  return { rate: fromScaled(rate, 6), buyAmount: fromScaled(buy, 2) };
}
