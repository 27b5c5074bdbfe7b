// The reconciler's handler for a custody transfer's submission (server/domain/reconcile/): the custody provider is asked
// by the transfer id (the submission's idempotency key) whether it submitted it.
//   - executed: the provider's `transferId` recorded. A transfer still `approved` (its request died between its two
//     commits) moves to `submitted` with its `custody_transfer.submitted` event; one already `submitted` without a
//     `transferId` (answered 202) gets it recorded with no new event — its state did not change. Either way it then
//     advances as usual (shape 3, custody/transfers/status);
//   - not executed: `failed` with `not_executed` (nothing was sent);
//   - after the last attempt, the provider still unable to answer: `failed` with `outcome_unconfirmed`, naming the last
//     error.
// The key's final answer is 200 with the transfer as it now stands (what shapes 2 and 3 answer).
import { compareAndSet } from "../../db/compare-and-set.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type IntentHandler, scopeOf } from "../reconcile/intent-handler.ts";
import type { CustodyTransferRow } from "./custody-dto.ts";
import { CUSTODY_TRANSFER_SUBMIT, NOT_EXECUTED, outcomeUnconfirmed } from "./custody-transfer-moves.ts";
import { answer, moveTransfer } from "./custody-transfer-steps.ts";
import { servingCustodian } from "./serving-custodian.ts";

/** The submission's outcome is still open: `approved` (its request died) or `submitted` without the provider's id. */
const unsettled = (row: CustodyTransferRow) => row.providerTransferId === null && (row.status === "approved" || row.status === "submitted");

/** The transfer the intent submitted, locked for the settling transaction. */
function lockTransfer(uow: UnitOfWork, intent: ClaimedIntent) {
  return uow.tx
    .selectFrom("CustodyTransfer")
    .selectAll()
    .where(ownedBy(scopeOf(intent)))
    .where("id", "=", intent.resourceId)
    .forUpdate()
    .executeTakeFirst();
}

type Found = { executed: true; providerTransferId: string } | { executed: false } | { gone: true };

export const custodyTransferSubmitHandler: IntentHandler<Found> = {
  family: CUSTODY_TRANSFER_SUBMIT,
  async lookup(db, intent) {
    const custodian = await servingCustodian(db, "CustodyTransfer", intent);
    if (!custodian) return { gone: true };
    const { api, ctx } = custodian;
    const found = await callProvider({ provider: "custody", what: "look the submission up" }, () =>
      api.findTransfer(ctx, { idempotencyKey: intent.reference }),
    );
    return found ? { executed: true, providerTransferId: found.providerTransferId } : { executed: false };
  },
  async settle(uow, intent, found) {
    const row = await lockTransfer(uow, intent);
    if (!row || "gone" in found) return undefined;
    // Settled meanwhile (a later submission of the same transfer answered): it keeps that state.
    if (!unsettled(row)) return answer(row);
    const { providerTransferId } = found.executed ? found : { providerTransferId: null };
    if (providerTransferId === null) return answer(await moveTransfer(uow, row, { status: "failed", failureReason: NOT_EXECUTED }));
    if (row.status === "approved") return answer(await moveTransfer(uow, row, { status: "submitted", providerTransferId }));
    // Already `submitted` (and announced): only the provider's id is new. Row-locked above, so the version holds.
    const recorded = await compareAndSet(uow.tx, "CustodyTransfer", row, { providerTransferId, updatedAt: uow.now });
    return answer(recorded ?? row);
  },
  async giveUp(uow, intent, lastError) {
    const row = await lockTransfer(uow, intent);
    if (!row) return undefined;
    if (!unsettled(row)) return answer(row);
    return answer(await moveTransfer(uow, row, { status: "failed", failureReason: outcomeUnconfirmed(intent.attempts, lastError) }));
  },
};
