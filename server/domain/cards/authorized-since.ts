import type { Tx } from "../../idempotency/idempotency-store.ts";

/** Minor units a card authorized since `since`: approved authorizations created since then, minus what was reversed
 * of them (declined ones count nothing). */
export async function authorizedSince(tx: Tx, cardId: string, since: Date): Promise<bigint> {
  const [row] = await tx.$queryRaw<Array<{ total: string | null }>>`
    SELECT SUM("amountMinor" - "reversedMinor")::text AS "total"
      FROM "CardAuthorization"
     WHERE "cardId" = ${cardId} AND "status" IN ('pending', 'closed') AND "createdAt" >= ${since}`;
  return row?.total ? BigInt(row.total) : 0n;
}

export const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
export const startOfUtcMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
