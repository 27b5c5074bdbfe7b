// A custody wallet's transfer policy (CustodyWalletPolicy and CustodyAssetLimit in openapi/components/schemas/custody.yaml):
// one `policy` reason per broken rule; omitted members impose no rule; limits are per asset in minor units; the daily
// total counts the day's transfers but rejected, cancelled and failed ones.
import { describe, expect, it } from "vitest";
import type { CustodyWalletPolicy } from "../../../../server/domain/custody/custody-dto.ts";
import { COUNTED_TRANSFER_STATUSES, hasDailyLimit, walletPolicyReasons } from "../../../../server/domain/custody/wallet-policy-rules.ts";

const ALLOWED = "0x52908400098527886E0F7030069857D2E4169EE7";
const OTHER = "0x8617E340B3D01FA5F11F306F4090FD50E238070D";
const transfer = (overrides: Partial<{ destination: string; asset: string; amountMinor: bigint }> = {}) => ({
  destination: ALLOWED,
  asset: "USDC",
  amountMinor: 1_000n,
  ...overrides,
});
const limits: CustodyWalletPolicy = { limits: [{ asset: "USDC", perTransferMinor: "1000", dailyMinor: "5000" }] };

describe("walletPolicyReasons", () => {
  it.each<[string, CustodyWalletPolicy, ReturnType<typeof transfer>, bigint, string[]]>([
    ["an empty policy imposes nothing", {}, transfer({ amountMinor: 10n ** 30n }), 10n ** 30n, []],
    ["an allowed asset", { allowedAssets: ["USDC"] }, transfer(), 0n, []],
    ["an asset not allowed", { allowedAssets: ["USDT"] }, transfer(), 0n, ["policy.allowed_assets"]],
    ["an empty allowed-asset list allows nothing", { allowedAssets: [] }, transfer(), 0n, ["policy.allowed_assets"]],
    ["a destination on the allowlist", { destinationAllowlist: [ALLOWED] }, transfer(), 0n, []],
    ["the allowlist ignores case", { destinationAllowlist: [ALLOWED.toLowerCase()] }, transfer(), 0n, []],
    [
      "a destination off the allowlist",
      { destinationAllowlist: [ALLOWED] },
      transfer({ destination: OTHER }),
      0n,
      ["policy.destination_allowlist"],
    ],
    ["per transfer: exactly at the limit", limits, transfer({ amountMinor: 1_000n }), 0n, []],
    ["per transfer: one minor unit over", limits, transfer({ amountMinor: 1_001n }), 0n, ["policy.per_transfer_limit"]],
    ["daily: the day's total plus this one exactly at the limit", limits, transfer(), 4_000n, []],
    ["daily: one minor unit over", limits, transfer(), 4_001n, ["policy.daily_limit"]],
    ["a limit of another asset does not apply", limits, transfer({ asset: "USDT", amountMinor: 10n ** 9n }), 10n ** 12n, []],
    [
      "every broken rule is reported, in order",
      { allowedAssets: ["USDT"], destinationAllowlist: [ALLOWED], limits: [{ asset: "USDC", perTransferMinor: "1", dailyMinor: "1" }] },
      transfer({ destination: OTHER }),
      0n,
      ["policy.allowed_assets", "policy.destination_allowlist", "policy.per_transfer_limit", "policy.daily_limit"],
    ],
  ])("%s", (_name, policy, t, today, rules) => {
    const reasons = walletPolicyReasons(policy, t, today);
    expect(reasons.map((r) => r.rule)).toEqual(rules);
    expect(reasons.every((r) => r.stage === "policy")).toBe(true);
  });

  it("explains the daily limit with the total it would reach", () => {
    expect(walletPolicyReasons(limits, transfer({ amountMinor: 600n }), 4_500n)[0]?.message).toBe(
      "transfers of USDC today would reach 5100, above the wallet's daily limit of 5000 (minor units)",
    );
  });
});

describe("which transfers count against the daily limit", () => {
  it.each([
    ["pending_approval", true],
    ["approved", true],
    ["submitted", true],
    ["completed", true],
    ["rejected", false],
    ["cancelled", false],
    ["failed", false],
  ])("%s counts: %s", (status, counted) => {
    expect(COUNTED_TRANSFER_STATUSES.includes(status)).toBe(counted);
  });

  it.each<[CustodyWalletPolicy, string, boolean]>([
    [limits, "USDC", true],
    [limits, "USDT", false],
    [{ limits: [{ asset: "USDC", perTransferMinor: "1" }] }, "USDC", false],
    [{}, "USDC", false],
  ])("a daily total is read only with a daily limit for the asset: %j %s → %s", (policy, asset, read) => {
    expect(hasDailyLimit(policy, asset)).toBe(read);
  });
});
