import type { AuthContext } from "../../context.ts";
import { notFound } from "../../errors/service-error.ts";
import type { Card } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Serializes writes to one card: takes the card row's lock (`SELECT … FOR UPDATE`, held until the transaction ends)
 * and reads the card as it is now. Every posting to a card's ledger accounts holds this lock, so balances read after it
 * cannot change underneath the write. Lock order across the card endpoints: programme first, then card. */
export async function lockCard(tx: Tx, auth: AuthContext, cardId: string): Promise<Card> {
  return guardCardWrite("record", async () => {
    await tx.$queryRaw`SELECT "id" FROM "Card" WHERE "id" = ${cardId} FOR UPDATE`;
    const card = await tx.card.findFirst({ where: { id: cardId, organizationId: auth.organizationId, environment: auth.environment } });
    if (!card) throw notFound("Card");
    return card;
  });
}
