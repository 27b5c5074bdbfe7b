// A custody wallet's transfer policy (CustodyWalletPolicy), evaluated in the transaction that creates a transfer, with
// the wallet row locked so the daily total cannot be raced. Broken rules → 403 COMPLIANCE_BLOCKED with `reasons`.

import type { Tx } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import { COUNTED_TRANSFER_STATUSES, hasDailyLimit, policyRules, walletPolicyReasons } from "./wallet-policy-rules.ts";

export async function enforceWalletPolicy(
  tx: Tx,
  wallet: { id: string; policy: unknown },
  transfer: { destination: string; asset: string; amountMinor: bigint; now: Date },
): Promise<void> {
  const policy = policyRules(wallet.policy);
  if (!policy) return;
  let today = 0n;
  if (hasDailyLimit(policy, transfer.asset)) {
    const dayStart = new Date(Date.UTC(transfer.now.getUTCFullYear(), transfer.now.getUTCMonth(), transfer.now.getUTCDate()));
    const { total } = await tx
      .selectFrom("CustodyTransfer")
      .select((eb) => eb.cast<string | null>(eb.fn.sum("amountMinor"), "text").as("total"))
      .where("walletId", "=", wallet.id)
      .where("asset", "=", transfer.asset)
      .where("status", "in", COUNTED_TRANSFER_STATUSES)
      .where("createdAt", ">=", dayStart)
      .executeTakeFirstOrThrow();
    today = total === null ? 0n : numericToMinor(total, 0);
  }
  const reasons = walletPolicyReasons(policy, transfer, today);
  if (reasons.length > 0) {
    throw new ServiceError("COMPLIANCE_BLOCKED", `Blocked by the wallet's policy: ${reasons.map((r) => r.message).join("; ")}`, {
      extensions: { reasons },
    });
  }
}
