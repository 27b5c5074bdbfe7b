import { ServiceError } from "../../errors/service-error.ts";
import { retryWhile } from "../../lib/retry-while.ts";
import { isTransientConflict } from "./is-transient-conflict.ts";

/** Attempts after the first one when the write's first transaction hits a transient conflict. */
export const CARD_WRITE_RETRIES = 3;

export type CardConflictCode = "CARD_LEDGER_CONFLICT" | "CARD_RECORD_CONFLICT";

/** A transient conflict of an attempt that will be retried. A 503 to the unit of work, so it stores nothing as the
 * key's answer and frees the key for the next attempt; retryCardWrite catches it. */
class RetryCardWrite extends ServiceError {
  constructor(cause: unknown) {
    super("STORAGE_UNAVAILABLE", "The card write met a transient conflict; nothing was written", { cause, retryAfterSeconds: 1 });
  }
}

/** Inside a card write's unit of work: a transient database conflict (serialization failure, deadlock, lock timeout)
 * ends the attempt with RetryCardWrite, or — on the last attempt — with `conflictCode` (409), stored as the key's
 * answer: CARD_LEDGER_CONFLICT for ledger postings, CARD_RECORD_CONFLICT for record-only writes. */
export async function failTransientConflicts<T>(conflictCode: CardConflictCode, lastAttempt: boolean, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isTransientConflict(error)) throw error;
    if (!lastAttempt) throw new RetryCardWrite(error);
    throw new ServiceError(
      conflictCode,
      conflictCode === "CARD_LEDGER_CONFLICT"
        ? "The card ledger changed concurrently and the retries could not resolve it; nothing was written"
        : "The card record changed concurrently and the retries could not resolve it; nothing was written",
      { cause: error },
    );
  }
}

/** Runs a whole card write (its unit of work) again, after a short jittered pause, while an attempt ends with a
 * transient conflict (up to CARD_WRITE_RETRIES times). Nothing of a failed attempt is kept: each runs in its own
 * transaction. */
export function retryCardWrite<T>(attempt: (lastAttempt: boolean) => Promise<T>): Promise<T> {
  return retryWhile(
    {
      attempts: CARD_WRITE_RETRIES + 1,
      retryable: (error) => error instanceof RetryCardWrite,
      pause: (n) => new Promise((resolve) => setTimeout(resolve, 10 * 2 ** n + Math.floor(Math.random() * 10))),
    },
    attempt,
  );
}
