// Spends count for the rolling 24 hours only (charge-spending-limit.ts sums those): older rows are purged in bounded
// batches, each its own short statement, so a purge never holds a long lock. Deleting what is already gone deletes
// nothing, so several instances may each run it.
import type { Queryable } from "../../db/kysely.ts";

/** Rows deleted per statement. */
export const SPEND_PURGE_BATCH = 1_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeOldSpends(db: Queryable, options: { now: Date; batch?: number }): Promise<number> {
  const cutoff = new Date(options.now.getTime() - DAY_MS);
  const batch = options.batch ?? SPEND_PURGE_BATCH;
  let purged = 0;
  for (;;) {
    const result = await db
      .deleteFrom("ApiKeySpend")
      .where("id", "in", (eb) => eb.selectFrom("ApiKeySpend").select("id").where("createdAt", "<=", cutoff).limit(batch))
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    purged += deleted;
    if (deleted < batch) return purged;
  }
}
