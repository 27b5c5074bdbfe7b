import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { type CardDto, toCardDto } from "./card-dto.ts";
import { findCard } from "./find-card.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";

/** A card with its balance derived from the ledger. */
export async function getCard(options: { prisma: Db; auth: AuthContext; cardId: string; simulate?: CardIssuerFailure }): Promise<CardDto> {
  const { prisma, auth, cardId, simulate } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  const card = await findCard(prisma, auth, cardId);
  await callCardIssuer(() => issuer.api.retrieveCard(issuer.ctx, { reference: card.providerReference }));
  return toCardDto(card, card.programme.fundingAsset, await readCardBalance(prisma, auth, cardId));
}
