// A custody wallet's transfer policy (CustodyWalletPolicy), evaluated in the transaction that creates a transfer, with
// the wallet row locked so the daily total cannot be raced. Broken rules → 403 COMPLIANCE_BLOCKED with `reasons`.

import type { Tx } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { ComplianceReason } from "../compliance/types.ts";
import { numericToMinor } from "../money/minor-units.ts";
import type { CustodyWalletPolicy } from "./custody-dto.ts";

/** Transfers that still count against the daily limit (everything but rejected, cancelled and failed ones). */
const COUNTED = ["pending_approval", "approved", "submitted", "completed"];

export async function enforceWalletPolicy(
  tx: Tx,
  wallet: { id: string; policy: unknown },
  transfer: { destination: string; asset: string; amountMinor: bigint; now: Date },
): Promise<void> {
  const policy = (wallet.policy ?? null) as CustodyWalletPolicy | null;
  if (!policy) return;
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
  if (limit?.dailyMinor !== undefined) {
    const dayStart = new Date(Date.UTC(transfer.now.getUTCFullYear(), transfer.now.getUTCMonth(), transfer.now.getUTCDate()));
    const { total } = await tx
      .selectFrom("CustodyTransfer")
      .select((eb) => eb.cast<string | null>(eb.fn.sum("amountMinor"), "text").as("total"))
      .where("walletId", "=", wallet.id)
      .where("asset", "=", transfer.asset)
      .where("status", "in", COUNTED)
      .where("createdAt", ">=", dayStart)
      .executeTakeFirstOrThrow();
    const today = total === null ? 0n : numericToMinor(total, 0);
    if (today + transfer.amountMinor > BigInt(limit.dailyMinor)) {
      reason(
        "policy.daily_limit",
        `transfers of ${transfer.asset} today would reach ${today + transfer.amountMinor}, above the wallet's daily limit of ${limit.dailyMinor} (minor units)`,
      );
    }
  }
  if (reasons.length > 0) {
    throw new ServiceError("COMPLIANCE_BLOCKED", `Blocked by the wallet's policy: ${reasons.map((r) => r.message).join("; ")}`, {
      extensions: { reasons },
    });
  }
}
