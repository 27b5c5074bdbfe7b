// The moves of a custody transfer, shared by shapes 2 and 3 of custody/transfers and by custody/transfers/status. Each
// moves the transfer by one state with `version` +1, a compare-and-set on the version it read.
//
// The provider-facing moves (submit, reconcile) need two transactions: the transaction that read the transfer commits
// before the provider is called (no transaction stays open across a provider call), and a second one records the
// provider's answer. The version read in the first is what the second compares against: a writer that moved the
// transfer in between wins, and this request answers as `onLost` decides.
//
// The submission is reconcilable (issue 26): its first transaction also writes an open provider intent, with the
// transfer id as the provider's idempotency key. When the provider's answer is lost (the call timed out: it may have
// submitted it), the transfer moves to `submitted` with no `transferId` yet — submitted, outcome being confirmed —
// answered 202, and the reconciler (reconcile-custody-transfer.ts) asks the provider by the transfer id and settles it.

import { compareAndSet } from "../../db/compare-and-set.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { ServiceError } from "../../errors/service-error.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import type { ProviderCustodyTransfer } from "../../providers/capabilities/custody.ts";
import type { SimulatedCustodyStore } from "../../providers/capabilities/simulated-custody-store.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { approvalStatusOf } from "../approvals/approval-dto.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type CustodyTransferRow, toCustodyTransferDto } from "./custody-dto.ts";
import { emitCustodyTransferEvent } from "./custody-events.ts";
import { type CustodyProvider, conflict, custodyStep } from "./custody-provider.ts";
import { CUSTODY_TRANSFER_SUBMIT, moveForReport, reportMatchesTransfer, statusAfterApproval } from "./custody-transfer-moves.ts";

export const TERMINAL_TRANSFER_STATUSES = new Set(["completed", "failed", "rejected", "cancelled"]);

/** What a move answers when another writer moved the transfer first: the current row to answer with, or an error. */
export type OnLost = (current: CustodyTransferRow, read: CustodyTransferRow) => CustodyTransferRow | ServiceError;

const lostByDefault: OnLost = (_current, read) =>
  conflict(`The transfer changed concurrently (version ${read.version} is no longer current)`);

type Move = Partial<Pick<CustodyTransferRow, "status" | "providerTransferId" | "txHash">> & { failureReason?: unknown };

/** One move, compare-and-set on the version read; `onLost` decides the answer when another writer moved it first. The
 * move's event is emitted only when this request's compare-and-set won (a lost move emits nothing). */
export async function moveTransfer(
  uow: UnitOfWork,
  row: CustodyTransferRow,
  data: Move,
  onLost: OnLost = lostByDefault,
): Promise<CustodyTransferRow> {
  const { failureReason, ...columns } = data;
  const updated = await compareAndSet(uow.tx, "CustodyTransfer", row, {
    ...columns,
    ...(failureReason !== undefined ? { failureReason: JSON.stringify(failureReason) } : {}),
    updatedAt: uow.now,
  });
  if (updated) {
    emitCustodyTransferEvent(uow, updated);
    return updated;
  }
  const current = await uow.tx.selectFrom("CustodyTransfer").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
  const answer = onLost(current, row);
  if (answer instanceof Error) throw answer;
  return answer;
}

/** The transfer as both custody transfer operations answer it (200). */
type TransferOutcome = Extract<OperationOutcome<"getCustodyTransferStatus"> & OperationOutcome<"createCustodyTransfer">, { status: 200 }>;
export const answer = (row: CustodyTransferRow): TransferOutcome => ({ status: 200, body: toCustodyTransferDto(row) });
/** A submission whose outcome is being confirmed (shapes 2 and 3 of createCustodyTransfer). */
type UnconfirmedOutcome = Extract<OperationOutcome<"createCustodyTransfer">, { status: 202 }>;
const amountOf = (row: CustodyTransferRow) => numericToMinor(row.amountMinor, 0).toString();

/** approved → submitted: the provider accepts the transfer (keyed by custodyTransferId, so a retry never submits twice).
 * Two transactions (see the top of this file); a provider failure leaves the transfer `approved` for a retry; a lost
 * answer leaves it `submitted` without `transferId` (202) for the reconciler. */
export async function submitStep(
  uow: UnitOfWork,
  books: SimulatedCustodyStore,
  provider: CustodyProvider,
  row: CustodyTransferRow,
  onLost?: OnLost,
): Promise<PendingProviderStep<TransferOutcome | UnconfirmedOutcome>> {
  const wallet = await uow.tx
    .selectFrom("CustodyWallet")
    .select("providerWalletId")
    .where("id", "=", row.walletId)
    .executeTakeFirstOrThrow();
  const providerWalletId = wallet.providerWalletId;
  if (!providerWalletId) throw conflict("The transfer's wallet has no provider wallet");
  return custodyStep<{ providerTransferId: string }, TransferOutcome | UnconfirmedOutcome>({
    intent: {
      family: CUSTODY_TRANSFER_SUBMIT,
      resourceId: row.id,
      reference: row.id,
      organizationId: row.organizationId,
      environment: row.environment,
    },
    call: () =>
      callProvider({ provider: "custody", what: "submit the transfer" }, () =>
        provider.api.submitTransfer(provider.context({ books }), {
          idempotencyKey: row.id,
          providerWalletId,
          chain: row.chain,
          destination: row.destination,
          asset: row.asset,
          amountMinor: amountOf(row),
          note: row.note,
        }),
      ),
    onResult: async (uow2, { providerTransferId }) =>
      answer(await moveTransfer(uow2, row, { status: "submitted", providerTransferId }, onLost)),
    // The provider may have submitted it: announced `submitted`, its `transferId` unknown until the reconciler confirms.
    onUnknown: async (uow2) => ({
      status: 202,
      body: toCustodyTransferDto(await moveTransfer(uow2, row, { status: "submitted" }, onLost)),
    }),
  });
}

/** A submission whose provider answer was lost: `submitted` with no `transferId` until the reconciler confirms it. */
export const awaitsConfirmation = (row: CustodyTransferRow) => row.status === "submitted" && row.providerTransferId === null;

/** The provider's record of a submitted transfer. One it does not know, or that does not match ours (other amount,
 * asset or destination), is a state clash: 409 CUSTODY_STATE_CONFLICT, nothing recorded. */
async function reportedTransfer(
  books: SimulatedCustodyStore,
  provider: CustodyProvider,
  row: CustodyTransferRow,
): Promise<ProviderCustodyTransfer> {
  const providerTransferId = row.providerTransferId as string;
  const reported = await callProvider({ provider: "custody", what: "report the transfer" }, () =>
    provider.api.getTransfer(provider.context({ books }), { providerTransferId }),
  );
  if (!reported) throw conflict(`The custody provider does not know transfer ${providerTransferId}; the stored transfer is unchanged`);
  if (!reportMatchesTransfer(reported, { asset: row.asset, amountMinor: amountOf(row), destination: row.destination })) {
    throw conflict(
      `The custody provider's record of ${providerTransferId} differs from the stored transfer (asset, amount or destination)`,
    );
  }
  return reported;
}

/** submitted → completed | failed when the provider reports it final; unchanged while it reports it pending.
 * Two transactions (see the top of this file). */
export function reconcileStep(
  books: SimulatedCustodyStore,
  provider: CustodyProvider,
  row: CustodyTransferRow,
  onLost?: OnLost,
): PendingProviderStep<TransferOutcome> {
  return custodyStep({
    call: () => reportedTransfer(books, provider, row),
    async onResult(uow2, reported: ProviderCustodyTransfer) {
      const next = moveForReport(reported);
      return answer(next === null ? row : await moveTransfer(uow2, row, next, onLost));
    },
  });
}

/** pending_approval (row locked): a rejected approval makes the transfer `rejected`, an expired one `cancelled`. */
export async function settleFromApproval(uow: UnitOfWork, row: CustodyTransferRow): Promise<CustodyTransferRow | null> {
  const approval = await uow.tx
    .selectFrom("ApprovalRequest")
    .select(["status", "expiresAt", "consumedAt"])
    .where("id", "=", row.approvalRequestId)
    .executeTakeFirstOrThrow();
  const status = statusAfterApproval(approvalStatusOf(approval, uow.now));
  return status === null ? null : moveTransfer(uow, row, { status });
}
