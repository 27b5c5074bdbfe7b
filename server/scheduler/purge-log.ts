// One log line per retention purge run, named after the job ("idempotency purge", …) with its report
// (server/db/purge-in-batches.ts): rows deleted, batches, the slowest batch, batches the bound cancelled, and whether
// the run stopped at the floor. A run that stopped at the floor is a warning: something held its rows' locks, or the
// database could not delete even RETENTION_BATCH_FLOOR rows within RETENTION_BATCH_MAX_MS; the next run continues.
import type { PurgeReport } from "../db/purge-in-batches.ts";
import type { Logger } from "../logger.ts";

export function logPurge(logger: Logger | undefined, job: string, report: PurgeReport): void {
  const line = { ...report, slowestBatchMs: Math.round(report.slowestBatchMs * 10) / 10 };
  if (report.stoppedAtFloor) logger?.warn(line, `${job}: stopped at the floor batch, the next run continues`);
  else logger?.info(line, job);
}
