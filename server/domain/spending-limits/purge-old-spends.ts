// Spends count for the rolling 24 hours only (charge-spending-limit.ts sums those): older rows are purged in bounded
// batches like the other retention purges (server/db/purge-in-batches.ts, RETENTION_BATCH_SIZE), each its own short
// bounded transaction, so a purge never holds a long lock. Deleting what is already gone deletes nothing, so several
// instances may each run it.
import type { Queryable } from "../../db/kysely.ts";
import { DEFAULT_RETENTION_BATCHES, type PurgeReport, purgeInBatches, type RetentionBatches } from "../../db/purge-in-batches.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeOldSpends(db: Queryable, options: { now: Date; batches?: RetentionBatches }): Promise<PurgeReport> {
  const cutoff = new Date(options.now.getTime() - DAY_MS);
  return purgeInBatches(
    db,
    async (tx, limit) => {
      const result = await tx
        .deleteFrom("ApiKeySpend")
        // Oldest first, by the index on createdAt (as the idempotency purge, idempotency-store.ts: no scan of the pages
        // earlier batches emptied).
        .where("id", "in", (eb) =>
          eb.selectFrom("ApiKeySpend").select("id").where("createdAt", "<=", cutoff).orderBy("createdAt").limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    options.batches ?? DEFAULT_RETENTION_BATCHES,
  );
}
