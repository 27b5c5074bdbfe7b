import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type CardDto, toCardDto } from "./card-dto.ts";
import { findCard } from "./find-card.ts";
import { readCardBalance } from "./read-card-balance.ts";

/** A card with its balance derived from the ledger. */
export async function getCard(
  db: Queryable,
  options: {
    auth: AuthContext;
    cardId: string;
    simulate?: CardIssuerFailure;
  },
): Promise<CardDto> {
  const { auth, cardId, simulate } = options;
  const issuer = await connectProvider(db, auth, "card_issuance");
  const card = await findCard(db, auth, cardId, { includeUnissued: true });
  await callProvider({ provider: "card_issuance" }, () =>
    issuer.api.retrieveCard(issuer.context({ simulate }), { reference: card.providerReference }),
  );
  return toCardDto(card, card.programme.fundingAsset, await readCardBalance(db, auth, cardId));
}
