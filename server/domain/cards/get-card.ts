import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { type CardDto, toCardDto } from "./card-dto.ts";
import { findCard } from "./find-card.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";

/** A card with its balance derived from the ledger. */
export async function getCard(options: {
  db: Queryable;
  auth: AuthContext;
  cardId: string;
  simulate?: CardIssuerFailure;
}): Promise<CardDto> {
  const { db, auth, cardId, simulate } = options;
  const issuer = await resolveCardIssuer({ db, auth, simulate });
  const card = await findCard(db, auth, cardId);
  await callCardIssuer(() => issuer.api.retrieveCard(issuer.ctx, { reference: card.providerReference }));
  return toCardDto(card, card.programme.fundingAsset, await readCardBalance(db, auth, cardId));
}
