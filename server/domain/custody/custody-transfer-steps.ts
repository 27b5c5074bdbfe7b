// The provider-facing moves of a custody transfer, shared by shapes 2 and 3 of custody/transfers and by
// custody/transfers/status. Each runs inside the caller's transaction with the transfer row locked and moves the
// transfer by one state with `version` +1 (compare-and-set on the version it read).

import type { CustodyTransfer } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { approvalStatusOf } from "../approvals/approval-dto.ts";
import { type CustodyProvider, callCustody, conflict } from "./custody-provider.ts";

export const TERMINAL_TRANSFER_STATUSES = new Set(["completed", "failed", "rejected", "cancelled"]);

/** Locks the transfer row for the rest of the transaction; concurrent writers queue here and then see the new version. */
export async function lockTransfer(tx: Tx, id: string): Promise<CustodyTransfer> {
  await tx.$queryRaw`SELECT id FROM "CustodyTransfer" WHERE id = ${id} FOR UPDATE`;
  return tx.custodyTransfer.findUniqueOrThrow({ where: { id } });
}

async function move(tx: Tx, row: CustodyTransfer, data: Record<string, unknown>): Promise<CustodyTransfer> {
  const { count } = await tx.custodyTransfer.updateMany({
    where: { id: row.id, version: row.version },
    data: { ...data, version: { increment: 1 }, updatedAt: new Date() },
  });
  if (count !== 1) throw conflict(`The transfer changed concurrently (version ${row.version} is no longer current)`);
  return tx.custodyTransfer.findUniqueOrThrow({ where: { id: row.id } });
}

/** approved → submitted: the provider accepts the transfer (keyed by custodyTransferId, so a retry never submits twice). */
export async function submitTransfer(tx: Tx, provider: CustodyProvider, row: CustodyTransfer): Promise<CustodyTransfer> {
  const wallet = await tx.custodyWallet.findUniqueOrThrow({ where: { id: row.walletId } });
  if (!wallet.providerWalletId) throw conflict("The transfer's wallet has no provider wallet");
  const providerWalletId = wallet.providerWalletId;
  const { providerTransferId } = await callCustody("submit the transfer", () =>
    provider.api.submitTransfer(provider.ctx(tx), {
      idempotencyKey: row.id,
      providerWalletId,
      chain: row.chain,
      destination: row.destination,
      asset: row.asset,
      amountMinor: row.amountMinor.toFixed(0),
      note: row.note,
    }),
  );
  return move(tx, row, { status: "submitted", providerTransferId });
}

/** submitted → completed | failed when the provider reports it final; unchanged while it reports it pending.
 * A provider record that does not match ours (unknown id, other wallet, amount, asset or destination) is a state
 * clash: 409 CUSTODY_STATE_CONFLICT, nothing recorded. */
export async function reconcileTransfer(tx: Tx, provider: CustodyProvider, row: CustodyTransfer): Promise<CustodyTransfer> {
  const providerTransferId = row.providerTransferId as string;
  const reported = await callCustody("report the transfer", () => provider.api.getTransfer(provider.ctx(tx), { providerTransferId }));
  if (!reported) throw conflict(`The custody provider does not know transfer ${providerTransferId}; the stored transfer is unchanged`);
  const mismatch =
    reported.asset !== row.asset ||
    reported.amountMinor !== row.amountMinor.toFixed(0) ||
    reported.destination.toLowerCase() !== row.destination.toLowerCase();
  if (mismatch) {
    throw conflict(
      `The custody provider's record of ${providerTransferId} differs from the stored transfer (asset, amount or destination)`,
    );
  }
  if (reported.state === "submitted") return row;
  if (reported.state === "completed") return move(tx, row, { status: "completed", txHash: reported.txHash });
  return move(tx, row, {
    status: "failed",
    txHash: reported.txHash,
    failureReason: reported.failure ?? { code: "provider_failed", message: "The custody provider reported the transfer failed." },
  });
}

/** pending_approval: a rejected approval makes the transfer `rejected`, an expired one `cancelled`. */
export async function settleFromApproval(tx: Tx, row: CustodyTransfer): Promise<CustodyTransfer | null> {
  const approval = await tx.approvalRequest.findUniqueOrThrow({ where: { id: row.approvalRequestId } });
  const status = approvalStatusOf(approval);
  if (status === "rejected") return move(tx, row, { status: "rejected" });
  if (status === "expired") return move(tx, row, { status: "cancelled" });
  return null;
}
