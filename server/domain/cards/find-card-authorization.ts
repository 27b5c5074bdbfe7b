import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { CardAuthorization } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";

/** An authorization of this card (and of the caller's organization and environment); else 404 NOT_FOUND. */
export async function findCardAuthorization(
  db: Db | Tx,
  auth: AuthContext,
  cardId: string,
  authorizationId: string,
): Promise<CardAuthorization> {
  const authorization = await db.cardAuthorization.findFirst({
    where: { id: authorizationId, cardId, organizationId: auth.organizationId, environment: auth.environment },
  });
  if (!authorization) throw notFound("Card authorization");
  return authorization;
}
