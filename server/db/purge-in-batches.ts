// Retention purges delete in bounded batches: each batch is one transaction that deletes at most `batchSize` rows and
// holds its row locks only while it runs, then the purge pauses `pauseMs` so live requests get the database (and its
// WAL writer) between batches. A purge of a million expired rows is then a thousand short transactions, never one long
// one that holds locks for seconds, bloats one transaction's WAL, and stalls the requests it competes with (README
// "Operations", RETENTION_BATCH_SIZE, RETENTION_BATCH_PAUSE_MS, RETENTION_BATCH_MAX_MS).
//
// Short is enforced, not hoped for: a loaded machine once took 800 ms for a 1,000-row batch (`npm run
// bench:retention`). Each batch's transaction starts with its own bounds, transaction-scoped like the pooler's
// (transaction-scoped-settings.ts), so they hold through PgBouncer in transaction mode and never reach another client:
//   - statement_timeout and lock_timeout = RETENTION_BATCH_MAX_MS: a batch that runs longer, or that would wait longer
//     for a row lock someone else holds, is cancelled by the server (SQLSTATE 57014 / 55P03) and rolls back, having
//     deleted nothing and holding nothing. It is retried with half the rows, down to a floor; a cancelled batch at the
//     floor stops the run, and the next run continues (retention-batch-size.ts);
//   - synchronous_commit = off: the commit does not wait for the WAL flush. A crash may lose the last batches' commits;
//     the rows are then still there, expired, and the next run deletes them again.
// PGlite is one embedded connection: nothing else can hold a lock the purge waits for, and it ignores statement_timeout
// (it runs the statement to its end), so there the settings are sent but bound nothing; the code path is the same.

import { inTransaction } from "./direct-statements.ts";
import type { Queryable } from "./kysely.ts";
import { nextBatchSize } from "./retention-batch-size.ts";
import { setLocal } from "./transaction-scoped-settings.ts";

export interface RetentionBatches {
  /** Rows deleted per batch at most (RETENTION_BATCH_SIZE, default 1000). */
  batchSize: number;
  /** Pause between two batches (RETENTION_BATCH_PAUSE_MS, default 20). */
  pauseMs: number;
  /** A batch's statement_timeout and lock_timeout (RETENTION_BATCH_MAX_MS, default 100). */
  maxBatchMs?: number;
}

export const DEFAULT_RETENTION_BATCHES: Required<RetentionBatches> = { batchSize: 1_000, pauseMs: 20, maxBatchMs: 100 };

/** What one purge run did (the jobs log it, server/scheduler/purge-log.ts). */
export interface PurgeReport {
  /** Rows deleted. */
  rows: number;
  /** Batches committed. */
  batches: number;
  /** The longest batch, committed or cancelled, from asking for its connection to its COMMIT or ROLLBACK. */
  slowestBatchMs: number;
  /** Batches cancelled by the bound (each rolled back, retried smaller). */
  cancelled: number;
  /** A batch at the floor was cancelled too: the run stopped there and left the rest to the next run. */
  stoppedAtFloor: boolean;
}

/** Called after each batch: rows it deleted (0 when cancelled), its time, whether the bound cancelled it. */
export type BatchListener = (deleted: number, ms: number, cancelled: boolean) => void;

// query_canceled (statement_timeout) and lock_not_available (lock_timeout).
const CANCELLED_BY_BOUND = new Set(["57014", "55P03"]);

function cancelledByBound(error: unknown): boolean {
  return CANCELLED_BY_BOUND.has((error as { code?: unknown } | undefined)?.code as string);
}

/**
 * Runs `deleteBatch(tx, limit)`, each in a bounded transaction of its own on `db` (the database, not a transaction),
 * until a batch deletes fewer than `limit` rows or a batch at the floor is cancelled.
 */
export async function purgeInBatches(
  db: Queryable,
  deleteBatch: (tx: Queryable, limit: number) => Promise<number>,
  batches: RetentionBatches = DEFAULT_RETENTION_BATCHES,
  onBatch?: BatchListener,
): Promise<PurgeReport> {
  const limits = { maxSize: batches.batchSize, maxMs: batches.maxBatchMs ?? DEFAULT_RETENTION_BATCHES.maxBatchMs };
  const bounds = setLocal({ statement_timeout: limits.maxMs, lock_timeout: limits.maxMs, synchronous_commit: "off" });
  const report: PurgeReport = { rows: 0, batches: 0, slowestBatchMs: 0, cancelled: 0, stoppedAtFloor: false };
  let size = batches.batchSize;
  for (;;) {
    const started = performance.now();
    let deleted: number | undefined;
    try {
      deleted = await inTransaction(db, async (tx) => {
        await bounds.execute(tx);
        return deleteBatch(tx, size);
      });
    } catch (error) {
      if (!cancelledByBound(error)) throw error;
    }
    const ms = performance.now() - started;
    report.slowestBatchMs = Math.max(report.slowestBatchMs, ms);
    onBatch?.(deleted ?? 0, ms, deleted === undefined);
    let next: number | "stop";
    if (deleted === undefined) {
      report.cancelled++;
      next = nextBatchSize(size, { cancelled: true }, limits);
      if (next === "stop") {
        report.stoppedAtFloor = true;
        return report;
      }
    } else {
      report.rows += deleted;
      report.batches++;
      if (deleted < size) return report;
      next = nextBatchSize(size, { cancelled: false, ms }, limits);
    }
    size = next as number;
    if (batches.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, batches.pauseMs));
  }
}

/** `a` and `b` as one run's report (a purge of two tables). */
export function mergePurgeReports(a: PurgeReport, b: PurgeReport): PurgeReport {
  return {
    rows: a.rows + b.rows,
    batches: a.batches + b.batches,
    slowestBatchMs: Math.max(a.slowestBatchMs, b.slowestBatchMs),
    cancelled: a.cancelled + b.cancelled,
    stoppedAtFloor: a.stoppedAtFloor || b.stoppedAtFloor,
  };
}
