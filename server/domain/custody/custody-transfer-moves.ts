// Which state a custody transfer moves to (documented on `CustodyTransferStatus`), apart from the reads, provider calls
// and compare-and-set writes of custody-transfer-steps.ts, so the rules can be checked without a database.
import type { ApprovalStatus } from "../approvals/approval-dto.ts";

/** What the provider reports of a submitted transfer (the fields the moves look at). */
export interface ReportedCustodyTransfer {
  state: "submitted" | "completed" | "failed";
  asset: string;
  amountMinor: string;
  destination: string;
  txHash: string | null;
  failure: { code: string; message: string } | null;
}

export type ReportedMove =
  | { status: "completed"; txHash: string | null }
  | { status: "failed"; txHash: string | null; failureReason: { code: string; message: string } };

/** pending_approval: a rejected approval makes the transfer `rejected`, an expired one `cancelled`; otherwise it waits. */
export function statusAfterApproval(approval: ApprovalStatus): "rejected" | "cancelled" | null {
  if (approval === "rejected") return "rejected";
  if (approval === "expired") return "cancelled";
  return null;
}

/** The provider's record is of the stored transfer: same asset and amount, same destination ignoring case. */
export function reportMatchesTransfer(
  reported: Pick<ReportedCustodyTransfer, "asset" | "amountMinor" | "destination">,
  stored: { asset: string; amountMinor: string; destination: string },
): boolean {
  return (
    reported.asset === stored.asset &&
    reported.amountMinor === stored.amountMinor &&
    reported.destination.toLowerCase() === stored.destination.toLowerCase()
  );
}

/** submitted → completed | failed when the provider reports it final; null (unchanged) while it reports it submitted. */
export function moveForReport(reported: ReportedCustodyTransfer): ReportedMove | null {
  if (reported.state === "submitted") return null;
  if (reported.state === "completed") return { status: "completed", txHash: reported.txHash };
  return {
    status: "failed",
    txHash: reported.txHash,
    failureReason: reported.failure ?? { code: "provider_failed", message: "The custody provider reported the transfer failed." },
  };
}

/** The provider intent family of a transfer's submission (server/domain/reconcile/intent-handlers.ts; issue 26). */
export const CUSTODY_TRANSFER_SUBMIT = "custody_transfer.submit";

/** Why the reconciler failed a transfer whose submission the custody provider never executed. */
export const NOT_EXECUTED = {
  code: "not_executed",
  message: "The custody provider has no record of this submission: it was never executed, and nothing was sent.",
} as const;

/** Why the reconciler failed a transfer whose submission the custody provider could not confirm after its last attempt. */
export const outcomeUnconfirmed = (attempts: number, lastError: string) => ({
  code: "outcome_unconfirmed" as const,
  message:
    `The custody provider could not confirm whether it executed this submission after ${attempts} attempts (last: ${lastError}). Check with the custodian before retrying.`.slice(
      0,
      500,
    ),
});
