// The size of the next retention batch (server/db/purge-in-batches.ts), as a pure rule. A batch cancelled by its bound
// (RETENTION_BATCH_MAX_MS: statement_timeout / lock_timeout) deleted nothing, so it is retried with half the rows: on a
// loaded primary a smaller batch fits the bound where the full one did not. Below RETENTION_BATCH_FLOOR rows the
// trouble is not the batch's size (a lock held by someone else, a stalled server): the run stops and the next one
// continues. Fast batches (under a quarter of the bound) grow back by a quarter, up to RETENTION_BATCH_SIZE, so one slow
// moment does not leave the purge crawling at 10 rows a batch for the rest of the run.

/** The smallest batch tried; a cancelled batch of this size stops the run. */
export const RETENTION_BATCH_FLOOR = 10;

export type BatchOutcome = { cancelled: true } | { cancelled: false; ms: number };

export interface BatchSizeLimits {
  /** RETENTION_BATCH_SIZE: the size a purge starts at and never exceeds. */
  maxSize: number;
  /** RETENTION_BATCH_MAX_MS: the bound a batch runs under. */
  maxMs: number;
}

/** The next batch's size after one of `size` rows ended with `outcome`, or "stop" when a batch at the floor was cancelled. */
export function nextBatchSize(size: number, outcome: BatchOutcome, limits: BatchSizeLimits): number | "stop" {
  // A RETENTION_BATCH_SIZE below the floor is its own floor.
  const floor = Math.min(RETENTION_BATCH_FLOOR, limits.maxSize);
  if (outcome.cancelled) return size <= floor ? "stop" : Math.max(floor, Math.floor(size / 2));
  if (outcome.ms < limits.maxMs / 4) return Math.min(limits.maxSize, size + Math.ceil(size / 4));
  return size;
}
