// What the reconciler's card handlers share (issue 26): asking the card issuer that served a programme — its adapter and
// connection as they were when the write called it — what became of the write sent with the intent's reference.
import type { Queryable, Tx } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import { simulatedCardIssuerStore } from "../../db/simulated-card-issuer-store.ts";
import type { CardIssuerLookup } from "../../providers/capabilities/card-issuing.ts";
import { callProvider } from "../providers/provider-call.ts";
import { scopeOf } from "../reconcile/intent-handler.ts";
import { servingConnection } from "../reconcile/serving-connection.ts";
import type { CardRow } from "./card-rows.ts";

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

/** The card handlers' lookup: the issuer of the card the intent acts on (its `resourceId`) asked by the intent's
 * reference; `gone` when the card or its programme is. */
export async function lookUpIntentCard(db: Queryable, intent: ClaimedIntent): Promise<CardIssuerLookup | { gone: true }> {
  const card = await db
    .selectFrom("Card")
    .select("programmeId")
    .where(ownedBy(scopeOf(intent)))
    .where("id", "=", intent.resourceId)
    .executeTakeFirst();
  if (!card) return { gone: true };
  return (await lookUpCardWrite(db, intent, card.programmeId)) ?? { gone: true };
}

/** In the settling unit of work: the card the intent acts on, locked, with its programme's funding asset (its DTO's);
 * undefined when it is gone. */
export async function lockIntentCard(tx: Tx, intent: ClaimedIntent): Promise<{ card: CardRow; fundingAsset: string } | undefined> {
  const row = await tx
    .selectFrom("Card as c")
    .innerJoin("CardProgramme as p", "p.id", "c.programmeId")
    .selectAll("c")
    .select("p.fundingAsset")
    .where(ownedBy(scopeOf(intent), "c"))
    .where("c.id", "=", intent.resourceId)
    .forUpdate("c")
    .executeTakeFirst();
  if (!row) return undefined;
  const { fundingAsset, ...card } = row;
  return { card, fundingAsset };
}
