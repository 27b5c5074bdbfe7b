// Retention of idempotency records. Reservation, replay and completion happen in the request's unit of work
// (server/db/unit-of-work.ts); this only removes records past their retention (IDEMPOTENCY_TTL_HOURS).
import type { Queryable } from "../db/kysely.ts";

/** Deletes expired records; returns how many. */
export async function purgeExpiredIdempotencyRecords(db: Queryable, now: Date = new Date()): Promise<number> {
  const result = await db.deleteFrom("IdempotencyRecord").where("expiresAt", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
