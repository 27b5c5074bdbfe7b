// What a bank transfer's creation ends in once the bank's answer is known — whoever learns it: the request that called
// the bank (create-bank-transfer.ts), or the reconciler that asked it later (reconcile-bank-transfer.ts).
import { precompiled } from "../../db/precompiled-query.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { formatUsd36, toUsdMinor36 } from "../compliance/usd-rates.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { emitBankTransferEvent } from "./bank-transfer-events.ts";
import { moveBankTransfer } from "./move-bank-transfer.ts";

/** The provider intent family of a transfer's creation (server/domain/reconcile/intent-handlers.ts). */
export const BANK_TRANSFER_CREATE = "bank_transfer.create";
/** The provider intent family of a transfer's cancellation (reconcile-bank-transfer-cancel.ts). */
export const BANK_TRANSFER_CANCEL = "bank_transfer.cancel";
/** The bank's idempotency key for the cancellation of transfer `id`: one cancellation per transfer. */
export const cancelReference = (id: string) => `${id}:cancel`;

type FailureReason = components["schemas"]["BankTransferFailureReason"];

/** Precompiled: every accepted transfer records the bank's id (not built by Kysely per request). */
const recordProviderTransferId = precompiled((db, p: { id: string; providerTransferId: string; updatedAt: Date }) =>
  db.updateTable("BankTransfer").set({ providerTransferId: p.providerTransferId, updatedAt: p.updatedAt }).where("id", "=", p.id),
);

/** The bank executed it: its id recorded, the creation counted (activity, metric `bank_transfers.volume`) — once, here —
 * and, when the transfer was not announced yet (`announce`: still `pending` with no event), `bank_transfer.created`. */
export function acceptedByBank(
  uow: UnitOfWork,
  row: BankTransferRow,
  providerTransferId: string,
  options: { announce: boolean },
): BankTransferRow {
  uow.deferPrecompiled(recordProviderTransferId, { id: row.id, providerTransferId, updatedAt: uow.now });
  const accepted = { ...row, providerTransferId, updatedAt: uow.now };
  const usd = toUsdMinor36(toBankTransferDto(accepted).amount, row.currency);
  recordActivity(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: "bank_transfer.created",
    resourceId: row.id,
    ...(usd.kind === "ok" ? { amountUsd: formatUsd36(usd.usdMinor) } : {}),
  });
  if (options.announce) emitBankTransferEvent(uow, accepted);
  return accepted;
}

/** Why the reconciler failed a transfer the bank never confirmed. */
export const NOT_EXECUTED: FailureReason = {
  code: "not_executed",
  message: "The bank has no record of this transfer: its creation was never executed, and no money moved.",
  railCode: null,
};
export const outcomeUnconfirmed = (attempts: number, lastError: string): FailureReason => ({
  code: "outcome_unconfirmed",
  message:
    `The bank could not confirm whether it executed this transfer after ${attempts} attempts (last: ${lastError}). Check with the bank before retrying.`.slice(
      0,
      500,
    ),
  railCode: null,
});

/** The transfer `failed` for `reason`, with the event of each state it enters (`bank_transfer.created` first when it was
 * never announced). undefined: another writer moved it first. */
export async function failUnconfirmed(uow: UnitOfWork, row: BankTransferRow, reason: FailureReason): Promise<BankTransferRow | undefined> {
  if (row.status === "pending") emitBankTransferEvent(uow, row);
  return moveBankTransfer(uow, row, "failed", uow.now, { failureReason: JSON.stringify(reason) });
}
