// The corridor's FX leg with the local fallback (fixed sandbox rate table): source → stablecoin → payout, exact, each
// amount truncated to its currency's digits, quotes valid 5 minutes (corridor-fx.ts; WorkflowStep.output of fx_quote in
// openapi/components/schemas/corridors.yaml). And the ramp side of a rehearsal: which rail debits the person's account.
import { describe, expect, it } from "vitest";
import { onrampRail, rampAccount, rampAccountForRail } from "../../../../server/domain/corridors/corridor-accounts.ts";
import { hasLocalRate, localQuote } from "../../../../server/domain/corridors/corridor-fx.ts";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const quote = (amount: string, currency: string, asset: string, payoutCurrency: string) =>
  localQuote({ amount, currency, asset, payoutCurrency, now: NOW });

describe("localQuote", () => {
  it.each([
    // amount, currency, asset, payout → rate, stablecoinAmount, stablecoinMinor, payoutAmount
    ["1000.00", "EUR", "USDC", "USD", "1.080000", "1080.000000", "1080000000", "1080.00"],
    ["1000", "USD", "USDC", "EUR", "0.925925", "1000.000000", "1000000000", "925.92"], // 1000/1.08 = 925.925… truncated
    ["1000.00", "EUR", "USDC", "GBP", "0.850393", "1080.000000", "1080000000", "850.39"], // 1080/1.27 = 850.393…
    ["1000", "EUR", "USDC", "JPY", "161.194029", "1080.000000", "1080000000", "161194"], // JPY has no minor digits
    ["0.01", "JPY", "USDC", "USD", "0.006700", "0.000067", "67", "0.00"], // payout truncates to zero
    ["0.001", "JPY", "USDT", "USD", "0.006700", "0.000006", "6", "0.00"], // 0.0000067 USDT truncated to 6 places
    ["1", "USD", "DAI", "USD", "1.000000", "1.000000000000000000", "1000000000000000000", "1.00"],
    ["100", "GBP", "EURC", "EUR", "1.175925", "117.592592", "117592592", "117.59"], // through a euro stablecoin
  ])("%s %s → %s → %s", (amount, currency, asset, payout, rate, stablecoinAmount, stablecoinMinor, payoutAmount) => {
    expect(quote(amount, currency, asset, payout)).toEqual({
      rate,
      sourceAmount: amount,
      sourceCurrency: currency,
      stablecoinAmount,
      stablecoinMinor,
      payoutAmount,
      payoutCurrency: payout,
      expiresAt: "2026-11-22T10:05:00.000Z",
    });
  });

  it.each([
    ["a source currency without a sandbox rate", "100", "XYZ", "USDC", "USD"],
    ["a payout currency without a sandbox rate", "100", "EUR", "USDC", "KWD"],
    ["a stablecoin without a rate", "100", "EUR", "FOO", "USD"],
    ["a malformed amount", "1e3", "EUR", "USDC", "USD"],
    ["a negative amount", "-5", "EUR", "USDC", "USD"],
  ])("%s → null (UNSUPPORTED_CURRENCY)", (_name, amount, currency, asset, payout) => {
    expect(quote(amount, currency, asset, payout)).toBeNull();
  });

  it.each([
    ["EUR", true],
    ["USDC", true],
    ["KWD", false],
    ["eur", false],
  ])("has a local rate for %s: %s", (currency, has) => {
    expect(hasLocalRate(currency)).toBe(has);
  });
});

describe("ramp accounts", () => {
  type Source = Parameters<typeof onrampRail>[0];
  it.each([
    ["iban", "EUR", "sepa"],
    ["iban", "USD", "swift"],
    ["aba", "USD", "ach"],
    ["sort_code", "GBP", "fps"],
    ["swift", "JPY", "swift"],
  ])("a %s source in %s is debited by %s", (type, currency, rail) => {
    expect(onrampRail({ type } as Source, currency)).toBe(rail);
  });

  it.each([
    ["sepa", "iban"],
    ["sepa_instant", "iban"],
    ["swift", "iban"],
    ["ach", "aba"],
    ["wire", "aba"],
    ["fps", "sort_code"],
  ] as const)("a %s payout leaves from the ramp's %s account", (rail, type) => {
    expect(rampAccountForRail(rail).type).toBe(type);
  });

  it.each(["iban", "aba", "sort_code", "swift"] as const)("the ramp faces a %s account with one of the same type", (type) => {
    expect(rampAccount(type).type).toBe(type);
  });
});
