// The reconciler's handler for a bank transfer's cancellation (server/domain/reconcile/): the bank is asked by the
// cancellation's reference (`<transfer id>:cancel`) whether it cancelled the transfer.
//   - cancelled: the transfer `cancelled` with its event, as the request would have recorded it (once: compare-and-set;
//     already `cancelled` by another writer, it stays so); the key's final answer 200 with it;
//   - not cancelled: the transfer left as it is; the key's final answer 502 PROVIDER_EXECUTION_FAILED saying so;
//   - after the last attempt, the bank still unable to answer: the transfer left as it is (whether money moved is the
//     bank's to say: with the intent closed, status refreshes ask it again), the key's final answer 502 naming the last
//     error — the reason an operator reads (the reconciler's log line carries it too).

import { renderErrorBody } from "../../../sdk/src/protocol/error-body.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { Outcome } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { IntentHandler } from "../reconcile/intent-handler.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { BANK_TRANSFER_CANCEL } from "./bank-transfer-outcome.ts";
import { isCancellableBankStatus } from "./bank-transfer-statuses.ts";
import { recordCancellation } from "./cancel-bank-transfer.ts";
import { type Found, lockTransfer, lookUpByReference } from "./reconcile-bank-transfer.ts";

const CANCEL_PATH = "/api/v2/agent/payments/bank-transfer/cancel";

/** The key's final answer when no cancellation happened, in the shape the request would have answered it (problem+json;
 * `requestId` names the intent, which the reconciler's log line names too). */
function notCancelled(intent: ClaimedIntent, message: string): Outcome {
  const error = new ServiceError("PROVIDER_EXECUTION_FAILED", message);
  const { contentType, body } = renderErrorBody(error, { problem: true, path: CANCEL_PATH, requestId: intent.id });
  return { status: error.status, body, contentType };
}

export const bankTransferCancelHandler: IntentHandler<Found> = {
  family: BANK_TRANSFER_CANCEL,
  lookup: lookUpByReference,
  async settle(uow, intent, found) {
    const row = await lockTransfer(uow, intent);
    if (!row || "gone" in found) return undefined;
    if (!found.executed) {
      return notCancelled(
        intent,
        `The bank did not cancel the transfer (its answer was lost; it has no record of the cancellation). The transfer is unchanged: ${row.status}.`,
      );
    }
    if (row.status === "cancelled") return answer(row);
    if (!isCancellableBankStatus(row.status)) {
      // Not reached while the intent is open (status refreshes leave the transfer alone); named, never hidden.
      return notCancelled(intent, `The bank reports the transfer cancelled, but it is recorded ${row.status}: check with the bank.`);
    }
    return answer(await recordCancellation(uow, row as BankTransferRow));
  },
  async giveUp(uow, intent, lastError) {
    const row = await lockTransfer(uow, intent);
    if (!row) return undefined;
    return notCancelled(
      intent,
      `The bank could not confirm whether it cancelled the transfer after ${intent.attempts} attempts (last: ${lastError}). The transfer is recorded ${row.status}; check with the bank before cancelling again.`.slice(
        0,
        500,
      ),
    );
  },
};

const answer = (row: BankTransferRow) => ({ status: 200, body: toBankTransferDto(row) });
