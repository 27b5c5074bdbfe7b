import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { Card, Cardholder, CardProgramme } from "../../generated/prisma/client.ts";

export type CardWithRelations = Card & { programme: CardProgramme; cardholder: Cardholder };

/** A card of the caller's organization and environment, with its programme and cardholder; else 404 NOT_FOUND. */
export async function findCard(prisma: Db, auth: AuthContext, cardId: string): Promise<CardWithRelations> {
  const card = await prisma.card.findFirst({
    where: { id: cardId, organizationId: auth.organizationId, environment: auth.environment },
    include: { programme: true, cardholder: true },
  });
  if (!card) throw notFound("Card");
  return card;
}
