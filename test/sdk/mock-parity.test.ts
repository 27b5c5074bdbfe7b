// The partner mock cannot import the server (the SDK package stands alone), so what both need lives in the SDK and the
// server imports it: the error-code table, error bodies, Idempotency-Key parsing, path matching and scopes
// (sdk/src/protocol/), the FX quote and the rate table (sdk/src/sandbox/). What is left to compare is the little the
// mock still mirrors: the simulators' magic amount and the test keys' format; and that the simulator answers with the
// shared quote, and the one rate table is the one the spec states.
import { describe, expect, it } from "vitest";
import { mockApiKeys } from "../../sdk/src/mock/api-keys.ts";
import { FX_FAILING_AMOUNT, fxQuote } from "../../sdk/src/sandbox/fx-quote.ts";
import { SANDBOX_USD_RATES } from "../../sdk/src/sandbox/usd-rates.ts";
import { isWellFormedApiKey } from "../../server/domain/access/api-keys.ts";
import { fxSimulator } from "../../server/providers/simulators/fx-simulator.ts";
import { FAILING_AMOUNT } from "../../server/providers/simulators/magic-values.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";

describe("the mock's tables are the server's", () => {
  it("the FX simulator's magic amount", () => {
    expect(FX_FAILING_AMOUNT).toBe(FAILING_AMOUNT);
  });

  it("the one USD rate table is the one the spec states (ComplianceCurrency)", () => {
    const description = (loadSpec() as unknown as { components: { schemas: Record<string, { description: string }> } }).components.schemas
      .ComplianceCurrency?.description as string;
    const stated = new Map<string, string>();
    // "`EUR` and `EURC` 1.08" and "`USD`, `USDC`, … 1.00": every code before a figure takes that figure.
    for (const [, codes, figure] of description.replace(/\s+/g, " ").matchAll(/((?:`[A-Z]+`(?:, | and )?)+) ([0-9]+(?:\.[0-9]+)?)/g)) {
      for (const [, code] of (codes as string).matchAll(/`([A-Z]+)`/g)) stated.set(code as string, figure as string);
    }
    expect([...stated.keys()].sort()).toEqual(Object.keys(SANDBOX_USD_RATES).sort());
    for (const [code, rate] of Object.entries(SANDBOX_USD_RATES)) expect(Number(stated.get(code)), code).toBe(Number(rate));
  });

  it.each([
    // sell, buy, amount, spread (bps) → rate, buyAmount: worked by hand from the table.
    ["EUR", "USD", "100", 0, "1.080000", "108.00"],
    ["USD", "BRL", "10", 0, "5.000000", "50.00"],
    ["GBP", "EUR", "250.5", 0, "1.175926", "294.57"],
    ["EUR", "USD", "100", 100, "1.069200", "106.92"],
  ] as const)("FX quote %s → %s of %s (spread %i bps)", async (sellCurrency, buyCurrency, sellAmount, spreadBps, rate, buyAmount) => {
    const input = { sellCurrency, buyCurrency, sellAmount };
    expect(fxQuote(input, spreadBps)).toEqual({ rate, buyAmount });
    const simulated = await fxSimulator.operations.quote?.execute({ config: { spreadBps }, input, now: new Date() });
    expect(simulated).toMatchObject({ sellCurrency, buyCurrency, sellAmount, rate, buyAmount });
  });

  it("the test keys are well-formed API keys", () => {
    for (const key of Object.values(mockApiKeys)) expect(isWellFormedApiKey(key), key).toBe(true);
  });
});
