import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { cardAvailableAccount, cardPendingAccount } from "./card-accounts.ts";
import { toCardDto } from "./card-dto.ts";
import { readAccountBalances } from "./read-account-balances.ts";

type CardStatus = components["schemas"]["CardStatus"];

/** The caller's cards, newest first, each with its ledger balance as `GET /cards/{cardId}` shows it: the page (with
 * each card's funding asset) in one statement and every balance of the page in one more. Stored records only: the
 * card issuer is not called. */
export async function listCards(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow; status?: CardStatus; programmeId?: string },
): Promise<components["schemas"]["CardList"]> {
  const { auth, window, status, programmeId } = options;
  // Fails closed like every card operation: without a reviewed card issuer connection (424) nothing is listed.
  await connectProvider(db, auth, "card_issuance");
  const scoped = db
    .selectFrom("Card")
    .selectAll()
    .select((eb) =>
      eb
        .selectFrom("CardProgramme")
        .select("CardProgramme.fundingAsset")
        .whereRef("CardProgramme.id", "=", "Card.programmeId")
        .as("fundingAsset"),
    )
    // Every card, those not issued too (`pending`, `failed`: CardStatus).
    .where(ownedBy(auth));
  const page = await newestFirstPage(scoped, {
    ...window,
    unknownCursor: unknownCursor("a card"),
    filter: (query) =>
      query
        .$if(status !== undefined, (q) => q.where("status", "=", status as string))
        .$if(programmeId !== undefined, (q) => q.where("programmeId", "=", programmeId as string)),
  });
  const accounts = page.rows.flatMap((card) => [cardAvailableAccount(card.id), cardPendingAccount(card.id)]);
  const balances = accounts.length > 0 ? await readAccountBalances(db, auth, accounts) : new Map<string, bigint>();
  const data = page.rows.map(({ fundingAsset, ...card }) =>
    toCardDto(card, fundingAsset ?? "", {
      availableMinor: balances.get(cardAvailableAccount(card.id)) ?? 0n,
      pendingMinor: balances.get(cardPendingAccount(card.id)) ?? 0n,
    }),
  );
  return { data, hasMore: page.hasMore, nextCursor: page.nextCursor };
}
