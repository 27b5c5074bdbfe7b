// Sandbox FX: quotes from a static rate table (USD per unit), with an optional spread from config.
import { randomBase62 } from "../../lib/ids.ts";
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import { failOnMagic } from "./magic-values.ts";

/** USD value of one unit; stablecoins at par. */
export const SANDBOX_USD_RATES: Record<string, string> = {
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

export const fxSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "fx",
  name: "Sandbox FX simulator",
  simulator: true,
  parseConfig: (config) =>
    parseObjectConfig(config ?? {}, { spreadBps: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 1000 }),
  operations: {
    quote: {
      description: "Quote a conversion from `sellCurrency` to `buyCurrency` for `sellAmount`. Quotes expire after 60 s.",
      kind: "read",
      requiresApproval: false,
      inputSchema: {
        type: "object",
        required: ["sellCurrency", "buyCurrency", "sellAmount"],
        additionalProperties: false,
        properties: {
          sellCurrency: { enum: Object.keys(SANDBOX_USD_RATES) },
          buyCurrency: { enum: Object.keys(SANDBOX_USD_RATES) },
          sellAmount: { type: "string", pattern: "^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,6})?$" },
        },
      },
      async execute({ config, input, now }) {
        const { sellCurrency, buyCurrency, sellAmount } = input as { sellCurrency: string; buyCurrency: string; sellAmount: string };
        failOnMagic({ amount: sellAmount });
        const spread = BigInt((config.spreadBps as number | undefined) ?? 0);
        // rate = usd(sell) / usd(buy) × (1 − spread)
        const rate = (toScaled(SANDBOX_USD_RATES[sellCurrency] as string) * SCALE) / toScaled(SANDBOX_USD_RATES[buyCurrency] as string);
        const net = (rate * (10_000n - spread)) / 10_000n;
        const buy = (toScaled(sellAmount) * net) / SCALE;
        return {
          quoteId: `fxq_${randomBase62(22)}`,
          sellCurrency,
          buyCurrency,
          rate: fromScaled(net, 6),
          sellAmount,
          buyAmount: fromScaled(buy, 2),
          expiresAt: new Date(now.getTime() + 60_000).toISOString(),
        };
      },
    },
  },
};
