// The partner mock cannot import the server (the SDK package stands alone), so the few tables it mirrors are compared
// with the server's here: error codes (status, title, v1 code), the FX simulator (rates, input schema, results), the
// scope of each provider category, and the test keys' format.
import { describe, expect, it } from "vitest";
import { MOCK_ERROR_CODES } from "../../sdk/src/mock/api-errors.ts";
import { mockApiKeys, PROVIDER_CATEGORY_SCOPES } from "../../sdk/src/mock/api-keys.ts";
import { FX_FAILING_AMOUNT, FX_QUOTE_INPUT_SCHEMA, fxQuote, SANDBOX_FX_USD_RATES } from "../../sdk/src/mock/fx-quote.ts";
import { isWellFormedApiKey } from "../../server/auth/api-keys.ts";
import { ERROR_CODES } from "../../server/errors/codes.ts";
import { CATEGORY_SCOPE } from "../../server/providers/provider-adapter.ts";
import { fxSimulator, SANDBOX_USD_RATES } from "../../server/providers/simulators/fx-simulator.ts";
import { FAILING_AMOUNT } from "../../server/providers/simulators/magic-values.ts";

describe("the mock's tables are the server's", () => {
  it.each(Object.entries(MOCK_ERROR_CODES))("error code %s", (code, entry) => {
    expect(ERROR_CODES[code as keyof typeof ERROR_CODES]).toEqual(entry);
  });

  it("provider category scopes", () => {
    expect(PROVIDER_CATEGORY_SCOPES).toEqual(CATEGORY_SCOPE);
  });

  it("the FX simulator's rates, input schema and magic amount", () => {
    expect(SANDBOX_FX_USD_RATES).toEqual(SANDBOX_USD_RATES);
    expect(FX_QUOTE_INPUT_SCHEMA).toEqual(fxSimulator.operations.quote?.inputSchema);
    expect(FX_FAILING_AMOUNT).toBe(FAILING_AMOUNT);
  });

  const currencies = Object.keys(SANDBOX_USD_RATES);
  const amounts = ["0", "0.01", "1", "100.00", "250.5", "999999.999999", "123456789012345678"];
  it.each(currencies.flatMap((sell) => currencies.map((buy) => [sell, buy] as const)))(
    "FX quote %s → %s",
    async (sellCurrency, buyCurrency) => {
      for (const sellAmount of amounts) {
        const simulated = (await fxSimulator.operations.quote?.execute({
          config: {},
          input: { sellCurrency, buyCurrency, sellAmount },
          now: new Date(),
        })) as {
          rate: string;
          buyAmount: string;
        };
        expect(fxQuote({ sellCurrency, buyCurrency, sellAmount })).toEqual({ rate: simulated.rate, buyAmount: simulated.buyAmount });
      }
    },
  );

  it("the test keys are well-formed API keys", () => {
    for (const key of Object.values(mockApiKeys)) expect(isWellFormedApiKey(key), key).toBe(true);
  });
});
