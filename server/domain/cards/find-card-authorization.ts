import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { notFound } from "../../errors/service-error.ts";
import type { CardAuthorizationRow } from "./card-rows.ts";

/** An authorization of this card (and of the caller's organization and environment); else 404 NOT_FOUND. */
export async function findCardAuthorization(
  db: Queryable,
  auth: AuthContext,
  cardId: string,
  authorizationId: string,
): Promise<CardAuthorizationRow> {
  const authorization = await db
    .selectFrom("CardAuthorization")
    .selectAll()
    .where("id", "=", authorizationId)
    .where("cardId", "=", cardId)
    .where(ownedBy(auth))
    .executeTakeFirst();
  if (!authorization) throw notFound("Card authorization");
  return authorization;
}
