import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { toCardTransactionDto } from "./card-transaction-dto.ts";
import { findCard } from "./find-card.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";

type Page = components["schemas"]["CardTransactionList"];

/** A card's transactions, newest first (by insertion sequence), `limit` per page after the cursor `startingAfter`. */
export async function listCardTransactions(options: {
  prisma: Db;
  auth: AuthContext;
  cardId: string;
  limit: number;
  startingAfter?: string;
  simulate?: CardIssuerFailure;
}): Promise<Page> {
  const { prisma, auth, cardId, limit, startingAfter, simulate } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  const card = await findCard(prisma, auth, cardId);
  let before: bigint | undefined;
  if (startingAfter !== undefined) {
    const cursor = await prisma.cardTransaction.findFirst({ where: { id: startingAfter, cardId: card.id }, select: { seq: true } });
    if (!cursor) throw validationError("/query/startingAfter", "is not a transaction of this card");
    before = cursor.seq;
  }
  await callCardIssuer(() => issuer.api.retrieveCard(issuer.ctx, { reference: card.providerReference }));
  const rows = await prisma.cardTransaction.findMany({
    where: { cardId: card.id, ...(before !== undefined ? { seq: { lt: before } } : {}) },
    orderBy: { seq: "desc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    data: page.map(toCardTransactionDto),
    hasMore,
    nextCursor: hasMore ? (page[page.length - 1]?.id ?? null) : null,
    simulated: true,
  };
}
