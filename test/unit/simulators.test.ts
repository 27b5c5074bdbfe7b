// Each sandbox simulator's operations are deterministic, and its documented magic values fail as documented.
import { describe, expect, it } from "vitest";
import { ProviderConfigError, ProviderExecutionError } from "../../server/providers/provider-adapter.ts";
import { findAdapter, PROVIDER_ADAPTERS } from "../../server/providers/registry.ts";
import { validateOperationInput } from "../../server/providers/validate-input.ts";

const now = new Date("2026-11-22T10:00:00.000Z");
const run = (category: Parameters<typeof findAdapter>[0], operation: string, input: unknown, config: Record<string, unknown> = {}) => {
  const adapter = findAdapter(category, "simulator");
  if (!adapter) throw new Error(`no ${category} simulator`);
  const def = adapter.operations[operation];
  if (!def) throw new Error(`no ${operation}`);
  expect(validateOperationInput(def, input)).toEqual([]);
  return def.execute({ config: adapter.parseConfig(config), input, now });
};

describe("sandbox simulators", () => {
  it("exist for every category", () => {
    expect(new Set(PROVIDER_ADAPTERS.map((a) => a.category)).size).toBe(7);
    expect(PROVIDER_ADAPTERS.every((a) => a.simulator && a.slug === "simulator")).toBe(true);
  });

  it.each([
    ["fx", "quote", { sellCurrency: "EUR", buyCurrency: "USD", sellAmount: "100.00" }, { rate: "1.080000", buyAmount: "108.00" }],
    ["fx", "quote", { sellCurrency: "USD", buyCurrency: "JPY", sellAmount: "1.00" }, { buyAmount: "149.25" }],
    ["custody", "get_balance", { walletId: "cw_1", asset: "DAI" }, { amountMinor: "1000000000000", decimals: 18 }],
    ["custody", "create_transfer", { walletId: "cw_1", destination: "0xabc", asset: "USDC", amountMinor: "5" }, { state: "submitted" }],
    ["bank_transfer", "list_rails", { country: "US" }, { rails: ["ach", "wire"] }],
    ["bank_transfer", "list_rails", { country: "DE" }, { rails: ["sepa", "sepa_instant", "swift"] }],
    ["compliance_screening", "screen_address", { address: "0x7f367cc41522ce07553e823bf3be79a889debe1b" }, { sanctioned: true }],
    ["compliance_screening", "screen_address", { address: "0x27b1fdb04752bbc536007a920d24acb045561c26" }, { sanctioned: false }],
    ["chain_read", "get_block_number", {}, { blockNumber: 2_343_000 }],
    ["card_issuance", "list_networks", {}, { networks: ["visa", "mastercard"] }],
    ["token_issuance", "get_reserve_ratio", {}, { reserveRatio: "1.00" }],
  ] as const)("%s.%s(%j) → %j", async (category, operation, input, expected) => {
    const first = await run(category, operation, input);
    expect(first).toMatchObject(expected);
    const second = await run(category, operation, input);
    const stable = (o: unknown) => JSON.parse(JSON.stringify(o, (k, v) => (k === "quoteId" ? undefined : v)));
    expect(stable(second)).toEqual(stable(first));
  });

  it("fx applies the connection's spread", async () => {
    expect(await run("fx", "quote", { sellCurrency: "USD", buyCurrency: "USD", sellAmount: "100.00" }, { spreadBps: 50 })).toMatchObject({
      rate: "0.995000",
      buyAmount: "99.50",
    });
  });

  it("token_issuance reports the configured reserve ratio", async () => {
    expect(await run("token_issuance", "get_reserve_ratio", {}, { reserveRatio: "1.02" })).toEqual({ reserveRatio: "1.02" });
  });

  it.each([
    ["fx", "quote", { sellCurrency: "USD", buyCurrency: "EUR", sellAmount: "666.66" }],
    [
      "custody",
      "create_transfer",
      { walletId: "cw_1", destination: "0x000000000000000000000000000000000000dead", asset: "USDC", amountMinor: "5" },
    ],
  ] as const)("magic value makes %s.%s fail like a provider", async (category, operation, input) => {
    await expect(run(category, operation, input)).rejects.toBeInstanceOf(ProviderExecutionError);
  });

  it.each([
    ["fx", { spreadBps: 5000 }],
    ["fx", { unknown: true }],
    ["token_issuance", { reserveRatio: "high" }],
    ["custody", { anything: 1 }],
  ] as const)("%s rejects the unusable config %j", (category, config) => {
    expect(() => findAdapter(category, "simulator")?.parseConfig(config)).toThrow(ProviderConfigError);
  });
});
