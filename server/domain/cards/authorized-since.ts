import type { Tx } from "../../db/kysely.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";

export const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
export const startOfUtcMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** Minor units a card authorized this UTC day and this UTC month (one statement): approved authorizations created in
 * the window, minus what was reversed of them (declined ones count nothing). */
export async function authorizedSince(tx: Tx, cardId: string, now: Date): Promise<{ today: bigint; month: bigint }> {
  const day = startOfUtcDay(now);
  const row = await tx
    .selectFrom("CardAuthorization")
    .where("cardId", "=", cardId)
    .where("status", "in", ["pending", "closed"])
    .where("createdAt", ">=", startOfUtcMonth(now))
    .select((eb) => {
      const open = eb("amountMinor", "-", eb.ref("reversedMinor"));
      return [
        eb.cast<string | null>(eb.fn.sum(open).filterWhere("createdAt", ">=", day), "text").as("today"),
        eb.cast<string | null>(eb.fn.sum(open), "text").as("month"),
      ];
    })
    .executeTakeFirst();
  const minor = (total: string | null | undefined) => (total ? numericToMinor(total, 0) : 0n);
  return { today: minor(row?.today), month: minor(row?.month) };
}
