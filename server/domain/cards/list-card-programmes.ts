import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { toCardProgrammeDto } from "./card-programme-dto.ts";

/** The caller's card programmes, newest first (stored records only: the card issuer is not called). */
export async function listCardProgrammes(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow },
): Promise<components["schemas"]["CardProgrammeList"]> {
  const { auth, window } = options;
  // Fails closed like every card operation: without a reviewed card issuer connection (424) nothing is listed.
  await connectProvider(db, auth, "card_issuance");
  const scoped = db
    .selectFrom("CardProgramme")
    .selectAll()
    // Every programme, those whose creation is being confirmed (`pending`) or `failed` too (CardProgramme.status).
    .where(ownedBy(auth));
  const page = await newestFirstPage(scoped, {
    ...window,
    unknownCursor: unknownCursor("a card programme"),
  });
  return { data: page.rows.map(toCardProgrammeDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
