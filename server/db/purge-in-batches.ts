// Retention purges delete in bounded batches: each batch is one short statement (its own transaction) that deletes at
// most `batchSize` rows and holds its row locks only while it runs (well under 100 ms for the default 1,000 rows, measured
// by `npm run bench:retention`), then the purge pauses `pauseMs` so live requests get the database (and its WAL writer)
// between batches. A purge of a million expired rows is then a thousand short statements, never one long one that
// holds locks for seconds, bloats one transaction's WAL, and stalls the requests it competes with (README "Operations",
// RETENTION_BATCH_SIZE, RETENTION_BATCH_PAUSE_MS).

export interface RetentionBatches {
  /** Rows deleted per statement at most (RETENTION_BATCH_SIZE, default 1000). */
  batchSize: number;
  /** Pause between two batches (RETENTION_BATCH_PAUSE_MS, default 20). */
  pauseMs: number;
}

export const DEFAULT_RETENTION_BATCHES: RetentionBatches = { batchSize: 1_000, pauseMs: 20 };

/** Runs `deleteBatch(limit)` until it deletes fewer than `limit` rows; returns the total deleted. */
export async function purgeInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  batches: RetentionBatches = DEFAULT_RETENTION_BATCHES,
  onBatch?: (deleted: number, ms: number) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const deleted = await deleteBatch(batches.batchSize);
    onBatch?.(deleted, performance.now() - started);
    total += deleted;
    if (deleted < batches.batchSize) return total;
    if (batches.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, batches.pauseMs));
  }
}
