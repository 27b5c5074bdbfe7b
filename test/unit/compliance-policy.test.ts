import { describe, expect, it } from "vitest";
import { checkPolicy } from "../../server/domain/compliance/check-policy.ts";
import { DEFAULT_POLICY, type PolicySettings, readPolicySettings } from "../../server/domain/compliance/policy-settings.ts";
import type { ComplianceSubject } from "../../server/domain/compliance/types.ts";
import { formatUsd36, toUsdMinor36 } from "../../server/domain/compliance/usd-rates.ts";

const check = (subject: Omit<ComplianceSubject, "operation">, policy: PolicySettings = DEFAULT_POLICY) =>
  checkPolicy({ operation: "test", ...subject }, policy);

describe("USD conversion (sandbox table)", () => {
  it.each([
    ["100", "USD", "100.00"],
    ["100", "USDC", "100.00"],
    ["0.000001", "USDT", "0.000001"],
    ["1.123456789012345678", "DAI", "1.123456789012345678"],
    ["1250.00", "EUR", "1350.00"],
    ["1250", "eur", "1350.00"],
    ["1000", "GBP", "1270.00"],
    ["1000000", "JPY", "6700.00"],
  ])("%s %s = %s USD", (value, currency, usd) => {
    const result = toUsdMinor36(value, currency);
    expect(result.kind).toBe("ok");
    if (result.kind === "ok") expect(formatUsd36(result.usdMinor)).toBe(usd);
  });

  it("reports unknown currencies and malformed amounts", () => {
    expect(toUsdMinor36("1", "XYZ").kind).toBe("unsupported_currency");
    expect(toUsdMinor36("1e3", "USD").kind).toBe("invalid_amount");
    expect(toUsdMinor36("-1", "USD").kind).toBe("invalid_amount");
    expect(toUsdMinor36("1.0000000000000000001", "USD").kind).toBe("invalid_amount");
  });
});

describe("checkPolicy", () => {
  it.each<[string, Omit<ComplianceSubject, "operation">, PolicySettings, string[]]>([
    ["no amount, no jurisdictions", { parties: [{ role: "sender", name: "Acme" }] }, DEFAULT_POLICY, []],
    ["exactly the default limit", { amount: { value: "1000000", currency: "USDC" } }, DEFAULT_POLICY, []],
    [
      "one unit above the default limit",
      { amount: { value: "1000000.000001", currency: "USDC" } },
      DEFAULT_POLICY,
      ["policy.amount_limit"],
    ],
    [
      "EUR under the limit in EUR but over it in USD",
      { amount: { value: "950000", currency: "EUR" } },
      DEFAULT_POLICY,
      ["policy.amount_limit"],
    ],
    [
      "a lowered limit",
      { amount: { value: "500.01", currency: "USD" } },
      { blockedJurisdictions: [], maxAmountUsd: "500" },
      ["policy.amount_limit"],
    ],
    ["a raised limit", { amount: { value: "5000000", currency: "USD" } }, { blockedJurisdictions: [], maxAmountUsd: "10000000" }, []],
    ["an unknown currency", { amount: { value: "1", currency: "XYZ" } }, DEFAULT_POLICY, ["policy.currency_unsupported"]],
    ["a malformed amount", { amount: { value: "ten", currency: "USD" } }, DEFAULT_POLICY, ["policy.amount_invalid"]],
    [
      "a blocked country",
      { jurisdictions: { receiverJurisdiction: "RU" } },
      { blockedJurisdictions: ["RU"], maxAmountUsd: "1" },
      ["policy.jurisdiction_blocked"],
    ],
    [
      "a blocked country's subdivision",
      { jurisdictions: { senderJurisdiction: "US-NY" } },
      { blockedJurisdictions: ["US"], maxAmountUsd: "1" },
      ["policy.jurisdiction_blocked"],
    ],
    [
      "a blocked subdivision does not block the country",
      { jurisdictions: { senderJurisdiction: "US" } },
      { blockedJurisdictions: ["US-NY"], maxAmountUsd: "1" },
      [],
    ],
    [
      "a blocked party country",
      { parties: [{ role: "receiver", country: "BY" }] },
      { blockedJurisdictions: ["BY"], maxAmountUsd: "1" },
      ["policy.jurisdiction_blocked"],
    ],
    [
      "blocked jurisdiction and amount together",
      { jurisdictions: { jurisdiction: ["BY"] }, amount: { value: "2", currency: "USD" } },
      { blockedJurisdictions: ["BY"], maxAmountUsd: "1" },
      ["policy.jurisdiction_blocked", "policy.amount_limit"],
    ],
  ])("%s", (_name, subject, policy, expected) => {
    const result = check(subject, policy);
    expect(result.reasons.map((r) => r.rule)).toEqual(expected);
    expect(result.reasons.every((r) => r.stage === "policy")).toBe(true);
  });

  it("reports the USD amount and explains the limit", () => {
    const result = check({ amount: { value: "1250.00", currency: "EUR" } }, { blockedJurisdictions: [], maxAmountUsd: "1000" });
    expect(result.amountUsd).toBe("1350.00");
    expect(result.reasons).toEqual([
      {
        stage: "policy",
        rule: "policy.amount_limit",
        message: "amount 1250.00 EUR (1350.00 USD) exceeds the organization's limit of 1000 USD per operation",
      },
    ]);
  });
});

describe("readPolicySettings", () => {
  it.each<[string, unknown, PolicySettings]>([
    ["empty settings", {}, { blockedJurisdictions: [], maxAmountUsd: "1000000" }],
    ["null", null, { blockedJurisdictions: [], maxAmountUsd: "1000000" }],
    [
      "a stored policy",
      { policy: { blockedJurisdictions: ["RU"], maxAmountUsd: "250000" } },
      { blockedJurisdictions: ["RU"], maxAmountUsd: "250000" },
    ],
    ["a partial policy", { policy: { maxAmountUsd: "5" } }, { blockedJurisdictions: [], maxAmountUsd: "5" }],
    [
      "malformed fields",
      { policy: { blockedJurisdictions: "RU", maxAmountUsd: 5 } },
      { blockedJurisdictions: [], maxAmountUsd: "1000000" },
    ],
    [
      "other settings beside the policy",
      { chains: { base: true }, policy: { blockedJurisdictions: [], maxAmountUsd: "7" } },
      { blockedJurisdictions: [], maxAmountUsd: "7" },
    ],
  ])("%s", (_name, settings, expected) => {
    expect(readPolicySettings(settings)).toEqual(expected);
  });
});
