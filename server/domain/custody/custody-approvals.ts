// The four-eyes approvals that guard custody writes: one per wallet (activation) and one per transfer (submission),
// bound to the resource (resourceId), the action and the exact payload.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { type ApprovalRow, type ApprovalStatus, approvalStatusOf } from "../approvals/approval-dto.ts";
import { findApprovalRequest } from "../approvals/find-approval-request.ts";
import { approvalBindingConflict } from "./approval-binding.ts";
import type { CustodyTransferRow, CustodyWalletRow } from "./custody-dto.ts";
import { conflict } from "./custody-provider.ts";

export const WALLET_ACTION = "custody.wallets.create";
export const TRANSFER_ACTION = "custody.transfers.submit";

export const walletApprovalPayload = (w: Pick<CustodyWalletRow, "id" | "label" | "chain" | "type" | "policy">) => ({
  custodyWalletId: w.id,
  label: w.label,
  chain: w.chain,
  type: w.type,
  policy: w.policy ?? null,
});

export const transferApprovalPayload = (
  t: Pick<CustodyTransferRow, "id" | "walletId" | "destination" | "asset"> & { amountMinor: string },
) => ({
  custodyTransferId: t.id,
  walletId: t.walletId,
  destination: t.destination,
  asset: t.asset,
  amountMinor: t.amountMinor,
});

/** The approval request named in the body: the key's organization's (404 otherwise) and this resource's own
 * (409 CUSTODY_STATE_CONFLICT otherwise); returns it with its visible status. */
export async function approvalFor(
  db: Queryable,
  auth: AuthContext,
  approvalRequestId: string,
  resource: { id: string; approvalRequestId: string },
  action: string,
  now: Date,
): Promise<{ approval: ApprovalRow; status: ApprovalStatus }> {
  const approval = await findApprovalRequest(db, auth, approvalRequestId);
  const mismatch = approvalBindingConflict(approval, resource, action);
  if (mismatch) throw conflict(mismatch);
  return { approval, status: approvalStatusOf(approval, now) };
}
