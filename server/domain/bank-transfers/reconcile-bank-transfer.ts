// The reconciler's handler for a bank transfer's creation (server/domain/reconcile/): the bank is asked by the transfer
// id (the creation's idempotency key) whether it executed it.
//   - executed: the bank's id recorded and the creation counted, as the request would have; a transfer still `pending`
//     (its request crashed before answering) is announced (`bank_transfer.created`); one `processing` (answered 202)
//     stays there — the bank has it, and status refreshes advance it as usual;
//   - not executed: `failed` with `not_executed` (no money moved);
//   - after the last attempt, the bank still unable to answer: `failed` with `outcome_unconfirmed`, naming the last error.
// The key's final answer is 201 with the transfer as it now stands.
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import { simulatedBankStore } from "../../db/simulated-bank-store.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { BankTransferLookup } from "../../providers/capabilities/bank-transfers.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type IntentHandler, scopeOf } from "../reconcile/intent-handler.ts";
import { servingConnection } from "../reconcile/serving-connection.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { acceptedByBank, BANK_TRANSFER_CREATE, failUnconfirmed, NOT_EXECUTED, outcomeUnconfirmed } from "./bank-transfer-outcome.ts";

/** The transfer the intent acts on, locked for the settling transaction. */
export function lockTransfer(uow: UnitOfWork, intent: ClaimedIntent) {
  return uow.tx
    .selectFrom("BankTransfer")
    .selectAll()
    .where(ownedBy(scopeOf(intent)))
    .where("id", "=", intent.resourceId)
    .forUpdate()
    .executeTakeFirst();
}

/** The bank that served the transfer, as it was when the request called it (the adapter and its config). */
async function bankOf(db: Queryable, row: Pick<BankTransferRow, "provider" | "connectionId">, intent: ClaimedIntent) {
  const { adapter, config } = await servingConnection(db, "bank_transfer", row, scopeOf(intent));
  const api = adapter.capabilities?.bankTransfers;
  if (!api) throw new Error(`the bank_transfer adapter "${row.provider}" has no bank transfers`);
  return { api, config };
}

export type Found = BankTransferLookup | { gone: true };

/** Asks the bank that served the transfer whether it executed the call with the intent's reference (a creation, or a
 * cancellation: reconcile-bank-transfer-cancel.ts). */
export async function lookUpByReference(db: Queryable, intent: ClaimedIntent): Promise<Found> {
  const row = await db
    .selectFrom("BankTransfer")
    .select(["provider", "connectionId"])
    .where(ownedBy(scopeOf(intent)))
    .where("id", "=", intent.resourceId)
    .executeTakeFirst();
  if (!row) return { gone: true };
  const { api, config } = await bankOf(db, row, intent);
  const ctx = { config, now: new Date(), books: simulatedBankStore(db) };
  return callProvider({ provider: "bank_transfer", what: "look the transfer up" }, () => api.lookup(ctx, intent.reference));
}

export const bankTransferCreateHandler: IntentHandler<Found> = {
  family: BANK_TRANSFER_CREATE,
  lookup: lookUpByReference,
  async settle(uow, intent, found) {
    const row = await lockTransfer(uow, intent);
    if (!row || "gone" in found) return undefined;
    // Moved meanwhile by another writer (a cancel): it keeps that state; the bank's id is recorded when it executed.
    if (row.status !== "pending" && row.status !== "processing") {
      if (found.executed && !row.providerTransferId) acceptedByBank(uow, row, found.providerTransferId, { announce: false });
      return answer(row);
    }
    if (found.executed) return answer(acceptedByBank(uow, row, found.providerTransferId, { announce: row.status === "pending" }));
    return answer((await failUnconfirmed(uow, row, NOT_EXECUTED)) ?? row);
  },
  async giveUp(uow, intent, lastError) {
    const row = await lockTransfer(uow, intent);
    if (!row) return undefined;
    if (row.status !== "pending" && row.status !== "processing") return answer(row);
    return answer((await failUnconfirmed(uow, row, outcomeUnconfirmed(intent.attempts, lastError))) ?? row);
  },
};

const answer = (row: BankTransferRow) => ({ status: 201, body: toBankTransferDto(row) });
