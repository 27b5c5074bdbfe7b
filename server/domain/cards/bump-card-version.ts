import { ServiceError } from "../../errors/service-error.ts";
import type { Card, Prisma } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Writes the card record (optimistic concurrency on `version`, on top of the row lock the caller holds): its new
 * fields, `version + 1` and `updatedAt`. A version clash → 409 CARD_RECORD_CONFLICT; a failed write → 500
 * CARD_RECORD_WRITE_FAILED. */
export async function bumpCardVersion(tx: Tx, card: Card, data: Prisma.CardUpdateManyMutationInput = {}): Promise<Card> {
  return guardCardWrite("record", async () => {
    const { count } = await tx.card.updateMany({
      where: { id: card.id, version: card.version },
      data: { ...data, version: { increment: 1 }, updatedAt: new Date() },
    });
    if (count === 0) throw new ServiceError("CARD_RECORD_CONFLICT", "The card changed concurrently; retry");
    return tx.card.findUniqueOrThrow({ where: { id: card.id } });
  });
}
