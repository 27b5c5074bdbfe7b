// The console's words for what an approval request would do and who made an API key: amounts from minor units (exact,
// grouped, with the asset), the custody decimals read from the contract's own table, each guarded action's summary,
// and a key's creator (member, removed member, operator).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { custodyDecimals, formatAmount, formatDecimal, formatMinor, formatMoney } from "../../console/src/api/amounts.ts";
import { type AssetCatalogue, summarizeApproval } from "../../console/src/api/approval-summary.ts";
import { creatorOf } from "../../console/src/api/key-creator.ts";
import type { components } from "../../server/generated/openapi.ts";

type Approval = components["schemas"]["ApprovalRequest"];

const spec = JSON.parse(readFileSync("openapi/generated/openapi.json", "utf8")) as {
  components: { schemas: Record<string, { description?: string }> };
};
const decimals = custodyDecimals(spec.components.schemas.CustodyAsset?.description ?? "");
const catalogue: AssetCatalogue = { issuers: new Map([["iss_cp", { asset: "CPUSD", decimals: 6 }]]), decimals };

const approval = (action: string, kind: Approval["kind"], payload: unknown) => ({ action, kind, payload }) as Approval;

describe("formatMinor", () => {
  it.each([
    ["1250000000", 6, "1,250.00"],
    ["1250500000", 6, "1,250.50"],
    ["1", 6, "0.000001"],
    ["0", 6, "0.00"],
    ["1234567890123456789012", 18, "1,234.567890123456789012"],
    ["100", 0, "100"],
    ["1000000", 0, "1,000,000"],
    ["-2500000", 6, "-2.50"],
  ])("%s with %i decimals reads %s", (minor, places, expected) => {
    expect(formatMinor(minor, places)).toBe(expected);
  });

  it("refuses what is not an integer string, so nothing is guessed", () => {
    expect(formatMinor("12.5", 6)).toBeNull();
    expect(formatMinor("1e6", 6)).toBeNull();
    expect(formatAmount("12.5", "USDC", 6)).toBe("12.5 minor units of USDC");
    expect(formatAmount("2500000", "USDC", null)).toBe("2500000 minor units of USDC");
  });
});

describe("custodyDecimals reads the CustodyAsset table of the contract", () => {
  it("has every custody asset of the enum, with the documented decimals", () => {
    const assets = (spec.components.schemas.CustodyAsset as { enum?: string[] }).enum ?? [];
    expect(assets.length).toBeGreaterThan(5);
    expect([...decimals.keys()].sort()).toEqual([...assets].sort());
    expect(decimals.get("USDC")).toBe(6);
    expect(decimals.get("USDT")).toBe(6);
    expect(decimals.get("DAI")).toBe(18);
    expect(decimals.get("SOL")).toBe(9);
  });
});

describe("summarizeApproval", () => {
  it("a mint: the issuer's asset and decimals, to the recipient", () => {
    const to = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    expect(
      summarizeApproval(approval("treasury.mint", "issuance", { issuerId: "iss_cp", amountMinor: "1250000000", to }), catalogue),
    ).toEqual({
      operation: "Mint",
      amount: "1,250.00 CPUSD",
      asset: "CPUSD",
      destination: to,
    });
  });

  it("a burn names the holder it takes from; an unknown issuer keeps minor units", () => {
    const from = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
    const burn = summarizeApproval(approval("treasury.burn", "issuance", { issuerId: "iss_gone", amountMinor: "5", from }), catalogue);
    expect(burn).toEqual({ operation: "Burn", amount: "5 minor units", asset: "—", destination: `from ${from}` });
  });

  it("a custody transfer and a provider's create_transfer: the custody decimals of their asset", () => {
    const dest = "0x52908400098527886E0F7030069857D2E4169EE7";
    expect(
      summarizeApproval(
        approval("custody.transfers.submit", "custody_transfer", {
          walletId: "cw_1",
          destination: dest,
          asset: "DAI",
          amountMinor: "1500000000000000000",
        }),
        catalogue,
      ),
    ).toEqual({ operation: "Custody transfer", amount: "1.50 DAI", asset: "DAI", destination: dest });
    const invoked = summarizeApproval(
      approval("providers.invoke:custody.create_transfer", "provider_operation", {
        providerSlug: "simulator",
        category: "custody",
        operation: "create_transfer",
        input: { walletId: "w", destination: dest, asset: "USDC", amountMinor: "25000000" },
      }),
      catalogue,
    );
    expect(invoked).toEqual({ operation: "Custody create transfer via simulator", amount: "25.00 USDC", asset: "USDC", destination: dest });
  });

  it("a custody wallet moves no amount: its label, chain and type", () => {
    expect(
      summarizeApproval(
        approval("custody.wallets.create", "custody_wallet", { label: "Ops", chain: "base", type: "mpc", policy: null }),
        catalogue,
      ),
    ).toEqual({ operation: "New custody wallet", amount: "—", asset: "—", destination: "Ops (base, mpc)" });
  });
});

describe("creatorOf", () => {
  const members = new Map([["mem_alice", { name: "Alice Owner", email: "alice@example.com" }]]);
  it("names a member, shows a removed member by id, and an operator's key by its actor", () => {
    expect(creatorOf("mem_alice", "alice@example.com", members)).toEqual({ name: "Alice Owner", detail: "alice@example.com" });
    expect(creatorOf("mem_gone", "gone@example.com", members)).toEqual({ name: "mem_gone", detail: "no longer a member" });
    expect(creatorOf(null, "ops-bot", members)).toEqual({ name: "ops-bot", detail: "the operator (admin API)" });
  });
});

describe("money with its currency's decimals (issue 38: $125.50, not $125.5)", () => {
  it.each([
    [125.5, "USD", "$125.50"],
    [125, "USD", "$125.00"],
    [1234567.891, "USD", "$1,234,567.89"],
    [0, "USD", "$0.00"],
    [1500, "JPY", "¥1,500"],
  ])("%d %s reads %s", (value, currency, expected) => {
    expect(formatMoney(value, currency)).toBe(expected);
  });

  it.each([
    ["125.5", "USD", "125.50"],
    ["1250", "EUR", "1,250.00"],
    ["0.000001", "USDC", "0.000001"],
    ["12.5", "USDC", "12.50"],
    ["1500", "JPY", "1,500"],
    ["1.5", "KWD", "1.500"],
    ["-2.5", "USD", "-2.50"],
    ["007.1", undefined, "7.10"],
  ])("the decimal %s %s reads %s", (amount, currency, expected) => {
    expect(formatDecimal(amount, currency)).toBe(expected);
  });

  it("shows what is not a decimal as it came", () => {
    expect(formatDecimal("1e6", "USD")).toBe("1e6");
    expect(formatDecimal("", "USD")).toBe("");
  });
});
