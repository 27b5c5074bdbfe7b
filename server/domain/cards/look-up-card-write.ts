// What the reconciler's card handlers share (issue 26): asking the card issuer that served a programme — its adapter and
// connection as they were when the write called it — what became of the write sent with the intent's reference.
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import { simulatedCardIssuerStore } from "../../db/simulated-card-issuer-store.ts";
import type { CardIssuerLookup } from "../../providers/capabilities/card-issuing.ts";
import { callProvider } from "../providers/provider-call.ts";
import { scopeOf } from "../reconcile/intent-handler.ts";
import { servingConnection } from "../reconcile/serving-connection.ts";

/** Asks the issuer of `programmeId` by the intent's reference, with no transaction open; throws when it cannot answer.
 * undefined: the programme is gone (nothing to settle). */
export async function lookUpCardWrite(db: Queryable, intent: ClaimedIntent, programmeId: string): Promise<CardIssuerLookup | undefined> {
  const programme = await db
    .selectFrom("CardProgramme")
    .select(["providerSlug", "connectionId"])
    .where(ownedBy(scopeOf(intent)))
    .where("id", "=", programmeId)
    .executeTakeFirst();
  if (!programme) return undefined;
  const served = { provider: programme.providerSlug, connectionId: programme.connectionId };
  const { adapter, config } = await servingConnection(db, "card_issuance", served, scopeOf(intent));
  const api = adapter.capabilities?.cards;
  if (!api) throw new Error(`the card_issuance adapter "${programme.providerSlug}" has no card issuing`);
  const ctx = { config, now: new Date(), books: simulatedCardIssuerStore(db) };
  return callProvider({ provider: "card_issuance", what: "look the write up" }, () => api.lookup(ctx, { reference: intent.reference }));
}
