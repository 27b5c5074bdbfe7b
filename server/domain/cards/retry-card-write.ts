import { ServiceError } from "../../errors/service-error.ts";
import { isTransientConflict } from "./is-transient-conflict.ts";

/** Attempts after the first one when the write's transaction hits a transient conflict. */
export const CARD_WRITE_RETRIES = 3;

/** Runs a whole card write transaction again (with a short jittered pause) when the database reports a transient
 * conflict; when the retries are spent, `conflictCode` (409): CARD_LEDGER_CONFLICT for ledger postings,
 * CARD_RECORD_CONFLICT for record-only writes. Nothing of a failed attempt is kept: each runs in its own transaction. */
export async function retryCardWrite<T>(
  conflictCode: "CARD_LEDGER_CONFLICT" | "CARD_RECORD_CONFLICT",
  attempt: () => Promise<T>,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransientConflict(error)) throw error;
      if (n >= CARD_WRITE_RETRIES) {
        throw new ServiceError(
          conflictCode,
          conflictCode === "CARD_LEDGER_CONFLICT"
            ? "The card ledger changed concurrently and the retries could not resolve it; nothing was written"
            : "The card record changed concurrently and the retries could not resolve it; nothing was written",
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** n + Math.floor(Math.random() * 10)));
    }
  }
}
