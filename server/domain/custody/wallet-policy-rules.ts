// The rules of a custody wallet's transfer policy (CustodyWalletPolicy), apart from the locked read of the day's total
// in wallet-policy.ts, so they can be checked without a database. Omitted members impose no rule.
import type { ComplianceReason } from "../compliance/types.ts";
import type { CustodyWalletPolicy } from "./custody-dto.ts";

/** The rules a wallet's `policy` sets: an object is a CustodyWalletPolicy (the validator checked it); any other JSON
 * value the wallet was given (the description types `policy` "any JSON") sets none. */
export const policyRules = (policy: unknown): CustodyWalletPolicy | null =>
  policy !== null && typeof policy === "object" && !Array.isArray(policy) ? (policy as CustodyWalletPolicy) : null;

/** Transfers that still count against the daily limit (everything but rejected, cancelled and failed ones). */
export const COUNTED_TRANSFER_STATUSES = ["pending_approval", "approved", "submitted", "completed"];

/** Whether the policy has a daily limit for `asset`, i.e. whether the day's total must be read. */
export const hasDailyLimit = (policy: CustodyWalletPolicy, asset: string): boolean =>
  policy.limits?.find((l) => l.asset === asset)?.dailyMinor !== undefined;

/** One `policy` reason per broken rule, in the documented order; `todayMinor` is what already counts today for the
 * asset (ignored without a daily limit). */
export function walletPolicyReasons(
  policy: CustodyWalletPolicy,
  transfer: { destination: string; asset: string; amountMinor: bigint },
  todayMinor: bigint,
): ComplianceReason[] {
  const reasons: ComplianceReason[] = [];
  const reason = (rule: string, message: string) => reasons.push({ stage: "policy", rule, message });
  if (policy.allowedAssets && !policy.allowedAssets.includes(transfer.asset as never)) {
    reason("policy.allowed_assets", `the wallet's policy does not allow sending ${transfer.asset}`);
  }
  if (policy.destinationAllowlist) {
    const allowed = policy.destinationAllowlist.some((a) => a.toLowerCase() === transfer.destination.toLowerCase());
    if (!allowed) reason("policy.destination_allowlist", `destination ${transfer.destination} is not on the wallet's allowlist`);
  }
  const limit = policy.limits?.find((l) => l.asset === transfer.asset);
  if (limit?.perTransferMinor !== undefined && transfer.amountMinor > BigInt(limit.perTransferMinor)) {
    reason(
      "policy.per_transfer_limit",
      `${transfer.amountMinor} exceeds the wallet's per-transfer limit of ${limit.perTransferMinor} (minor units of ${transfer.asset})`,
    );
  }
  if (limit?.dailyMinor !== undefined && todayMinor + transfer.amountMinor > BigInt(limit.dailyMinor)) {
    reason(
      "policy.daily_limit",
      `transfers of ${transfer.asset} today would reach ${todayMinor + transfer.amountMinor}, above the wallet's daily limit of ${limit.dailyMinor} (minor units)`,
    );
  }
  return reasons;
}
