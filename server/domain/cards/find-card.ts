import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { notFound } from "../../errors/service-error.ts";
import type { CardholderRow, CardProgrammeRow, CardRow } from "./card-rows.ts";

export type CardWithRelations = CardRow & {
  programme: Pick<CardProgrammeRow, "id" | "jurisdictions" | "fundingAsset" | "fundingModel">;
  /** Null for a card issued with no cardholder. */
  cardholder: Pick<CardholderRow, "name" | "dateOfBirth" | "billingAddress"> | null;
};

/** A card of the caller's organization and environment, with what the card endpoints use of its programme and
 * cardholder (one statement); else 404 NOT_FOUND. `forUpdate` also takes the card row's lock (see lockCard) — only for
 * writes that lock no programme, since the programme's lock comes first. A card not issued (`pending`: its issuing not
 * confirmed yet; `failed`) is found only by reads (`includeUnissued`): every write answers 404 for it. */
export async function findCard(
  db: Queryable,
  auth: AuthContext,
  cardId: string,
  options: { forUpdate?: boolean; includeUnissued?: boolean } = {},
): Promise<CardWithRelations> {
  let query = db
    .selectFrom("Card as c")
    .innerJoin("CardProgramme as p", "p.id", "c.programmeId")
    .leftJoin("Cardholder as h", "h.id", "c.cardholderId")
    .selectAll("c")
    .select([
      "p.jurisdictions as programmeJurisdictions",
      "p.fundingAsset as programmeFundingAsset",
      "p.fundingModel as programmeFundingModel",
      "h.name as cardholderName",
      "h.dateOfBirth as cardholderDateOfBirth",
      "h.billingAddress as cardholderBillingAddress",
    ])
    .where("c.id", "=", cardId)
    .where(ownedBy(auth, "c"))
    .$if(!options.includeUnissued, (q) => q.where("c.status", "not in", ["pending", "failed"]));
  if (options.forUpdate) query = query.forUpdate("c");
  const row = await query.executeTakeFirst();
  if (!row) throw notFound("Card");
  const {
    programmeJurisdictions,
    programmeFundingAsset,
    programmeFundingModel,
    cardholderName,
    cardholderDateOfBirth,
    cardholderBillingAddress,
    ...card
  } = row;
  return {
    ...card,
    programme: {
      id: card.programmeId,
      jurisdictions: programmeJurisdictions,
      fundingAsset: programmeFundingAsset,
      fundingModel: programmeFundingModel,
    },
    cardholder:
      cardholderName === null || cardholderBillingAddress === null
        ? null
        : { name: cardholderName, dateOfBirth: cardholderDateOfBirth, billingAddress: cardholderBillingAddress },
  };
}
