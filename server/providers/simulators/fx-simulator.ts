// Sandbox FX: quotes from the sandbox's one static rate table (sdk/src/sandbox/, shared with the partner mock), with an
// optional spread from config.
import { FX_QUOTE_INPUT_SCHEMA, fxQuote } from "../../../sdk/src/sandbox/fx-quote.ts";
import { randomBase62 } from "../../lib/ids.ts";
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import { failOnMagic } from "./magic-values.ts";

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
      inputSchema: FX_QUOTE_INPUT_SCHEMA,
      async execute({ config, input, now }) {
        const { sellCurrency, buyCurrency, sellAmount } = input as { sellCurrency: string; buyCurrency: string; sellAmount: string };
        failOnMagic({ amount: sellAmount });
        const { rate, buyAmount } = fxQuote({ sellCurrency, buyCurrency, sellAmount }, (config.spreadBps as number | undefined) ?? 0);
        return {
          quoteId: `fxq_${randomBase62(22)}`,
          sellCurrency,
          buyCurrency,
          rate,
          sellAmount,
          buyAmount,
          expiresAt: new Date(now.getTime() + 60_000).toISOString(),
        };
      },
    },
  },
};
