import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
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
  db: Queryable;
  auth: AuthContext;
  cardId: string;
  limit: number;
  startingAfter?: string;
  simulate?: CardIssuerFailure;
}): Promise<Page> {
  const { db, auth, cardId, limit, startingAfter, simulate } = options;
  const issuer = await resolveCardIssuer({ db, auth, simulate });
  const card = await findCard(db, auth, cardId);
  let before: string | undefined;
  if (startingAfter !== undefined) {
    const cursor = await db
      .selectFrom("CardTransaction")
      .select("seq")
      .where("id", "=", startingAfter)
      .where("cardId", "=", card.id)
      .executeTakeFirst();
    if (!cursor) throw validationError("/query/startingAfter", "is not a transaction of this card");
    before = cursor.seq;
  }
  await callCardIssuer(() => issuer.api.retrieveCard(issuer.ctx, { reference: card.providerReference }));
  let query = db.selectFrom("CardTransaction").selectAll().where("cardId", "=", card.id);
  if (before !== undefined) query = query.where("seq", "<", before);
  const rows = await query
    .orderBy("seq", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    data: page.map(toCardTransactionDto),
    hasMore,
    nextCursor: hasMore ? (page[page.length - 1]?.id ?? null) : null,
    simulated: true,
  };
}
