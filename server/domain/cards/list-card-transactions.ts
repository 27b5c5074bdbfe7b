import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { toCardTransactionDto } from "./card-transaction-dto.ts";
import { findCard } from "./find-card.ts";

type Page = components["schemas"]["CardTransactionList"];

/** A card's transactions, newest first (by insertion sequence), `limit` per page after the cursor `startingAfter`. */
export async function listCardTransactions(
  db: Queryable,
  options: {
    auth: AuthContext;
    cardId: string;
    limit: number;
    startingAfter?: string;
    simulate?: CardIssuerFailure;
  },
): Promise<Page> {
  const { auth, cardId, limit, startingAfter, simulate } = options;
  const issuer = await connectProvider(db, auth, "card_issuance");
  const card = await findCard(db, auth, cardId, { includeUnissued: true });
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
  await callProvider({ provider: "card_issuance" }, () =>
    issuer.api.retrieveCard(issuer.context({ simulate }), { reference: card.providerReference }),
  );
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
