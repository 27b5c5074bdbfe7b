// What the reconciler's custody handlers (reconcile-custody-transfer.ts, reconcile-custody-wallet.ts) ask the custodian
// through: the custody provider that served the resource, as its request called it (reconcile/serving-connection.ts),
// with the call context of a lookup made with no transaction open — the simulator's books on the database itself.
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import { simulatedCustodyStore } from "../../db/simulated-custody-store.ts";
import { scopeOf } from "../reconcile/intent-handler.ts";
import { servingConnection } from "../reconcile/serving-connection.ts";

/** The custodian that served the intent's resource (a row of `table`), or undefined when the resource is gone. */
export async function servingCustodian(db: Queryable, table: "CustodyWallet" | "CustodyTransfer", intent: ClaimedIntent) {
  // Both tables carry the serving `provider` and `connectionId` the same way; one of them names the query's types.
  const served = await db
    .selectFrom(table as "CustodyTransfer")
    .select(["provider", "connectionId"])
    .where(ownedBy(scopeOf(intent)))
    .where("id", "=", intent.resourceId)
    .executeTakeFirst();
  if (!served) return undefined;
  const { adapter, config } = await servingConnection(db, "custody", served, scopeOf(intent));
  const api = adapter.capabilities?.custody;
  if (!api) throw new Error(`the custody adapter "${served.provider}" has no custody capability`);
  return { api, ctx: { config, now: new Date(), books: simulatedCustodyStore(db) } };
}
