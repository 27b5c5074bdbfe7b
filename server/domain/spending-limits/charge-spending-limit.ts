// Counts a money-moving call against its API key's spending limits (issue 37), inside the call's unit of work
// (server/db/unit-of-work/), before the call's own work:
//   1. the key's limit row for the asset is locked (SELECT … FOR UPDATE), so concurrent calls of the key in that asset
//      are counted one after another: 20 parallel calls never overspend;
//   2. a fresh statement (READ COMMITTED: a new snapshot, taken after the lock was granted, so it sees what the previous
//      holder committed) sums what the key moved in the rolling 24 hours;
//   3. past a limit the call answers 403 FORBIDDEN with the `spendingLimit` extension; else the spend is written in the
//      closing statement, so it commits with the call's effect and its stored answer, or not at all.
// A replay of the Idempotency-Key answers the stored response without running the work, so it is never counted again;
// and a spend carries its Idempotency-Key, so a retry whose first attempt committed its spend before a provider call
// failed (a two-transaction write) is not counted twice either. A key without limits costs nothing: the flag came with
// the key (server/middleware/authenticate.ts), so not one statement is sent.
import { sql } from "kysely";
import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { newId } from "../../lib/ids.ts";
import {
  exceededLimit,
  fromUnits,
  normaliseAmount,
  SPENDING_SCALE,
  spendingLimitError,
  toUnits,
  unlistedAsset,
} from "./spending-limit-rules.ts";

/** What a call moves: an amount (decimal string) of an asset or currency. */
export interface MoneyMovement {
  asset: string;
  amount: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function chargeSpendingLimit(
  uow: UnitOfWork,
  options: {
    auth: Pick<AuthContext, "apiKeyId" | "spendingLimited">;
    movement: MoneyMovement;
    /** The request's Idempotency-Key scoped to its path (`idempotencyScope`), when it sent one. */
    idempotencyKey?: string;
  },
): Promise<void> {
  const { auth, movement, idempotencyKey } = options;
  if (!auth.spendingLimited) return;
  const requested = toUnits(normaliseAmount(movement.amount));
  const limit = await uow.tx
    .selectFrom("ApiKeySpendingLimit")
    .select([sql<string | null>`"perCall"::text`.as("perCall"), sql<string | null>`"per24h"::text`.as("per24h")])
    .where("apiKeyId", "=", auth.apiKeyId)
    .where("asset", "=", movement.asset)
    .forUpdate()
    .executeTakeFirst();
  // An asset the key does not list: refused without reading the spends (its maximum is 0).
  if (!limit) throw spendingLimitError(unlistedAsset(movement.asset, requested));
  const spent = await uow.tx
    .selectFrom("ApiKeySpend")
    .select([
      sql<string>`coalesce(sum("amount"), 0)::text`.as("used"),
      sql<boolean>`coalesce(bool_or("idempotencyKey" = ${idempotencyKey ?? null}), false)`.as("charged"),
    ])
    .where("apiKeyId", "=", auth.apiKeyId)
    .where("asset", "=", movement.asset)
    .where("createdAt", ">", new Date(uow.now.getTime() - DAY_MS))
    .executeTakeFirstOrThrow();
  // This request's first attempt already counted (its spend committed before its provider call failed): once is enough.
  if (idempotencyKey !== undefined && spent.charged) return;
  const used = toUnits(normaliseAmount(numericText(spent.used)));
  const exceeded = exceededLimit(movement.asset, limit, used, requested);
  if (exceeded) throw spendingLimitError(exceeded);
  uow.insertLater("ApiKeySpend", {
    id: newId("spend"),
    apiKeyId: auth.apiKeyId,
    asset: movement.asset,
    amount: fromUnits(requested),
    idempotencyKey: idempotencyKey ?? null,
    createdAt: uow.now,
  });
}

/** A numeric column's text with at most SPENDING_SCALE places (a sum keeps the columns' scale). */
function numericText(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  return fraction ? `${whole}.${fraction.slice(0, SPENDING_SCALE)}` : (whole as string);
}
