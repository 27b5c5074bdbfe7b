import { ServiceError } from "../../errors/service-error.ts";
import { isTransientConflict } from "./is-transient-conflict.ts";

export type CardWriteTarget = "record" | "ledger";

/** Runs one database step of a card write. A failure becomes 500 CARD_RECORD_WRITE_FAILED (card, cardholder, programme,
 * authorization records) or CARD_LEDGER_WRITE_FAILED (ledger entries and card transactions); the surrounding
 * transaction then rolls back, so nothing is half-written. Service errors and transient conflicts (retried by
 * retryCardWrite) pass through unchanged. */
export async function guardCardWrite<T>(target: CardWriteTarget, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ServiceError || isTransientConflict(error)) throw error;
    throw target === "ledger"
      ? new ServiceError("CARD_LEDGER_WRITE_FAILED", "The card ledger could not be written; nothing was changed", { cause: error })
      : new ServiceError("CARD_RECORD_WRITE_FAILED", "The card record could not be written; nothing was changed", { cause: error });
  }
}
