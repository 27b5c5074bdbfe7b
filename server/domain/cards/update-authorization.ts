import { ServiceError } from "../../errors/service-error.ts";
import type { CardAuthorization } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { decimalToMinor } from "./card-amount.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Adds captured / reversed amounts to an authorization (version-checked); when nothing is held any more it closes, and
 * so does its `authorization` transaction. */
export async function updateAuthorization(
  tx: Tx,
  authorization: CardAuthorization,
  add: { capturedMinor?: bigint; reversedMinor?: bigint },
): Promise<CardAuthorization> {
  const captured = decimalToMinor(authorization.capturedMinor) + (add.capturedMinor ?? 0n);
  const reversed = decimalToMinor(authorization.reversedMinor) + (add.reversedMinor ?? 0n);
  const closed = captured + reversed >= decimalToMinor(authorization.amountMinor);
  return guardCardWrite("record", async () => {
    const { count } = await tx.cardAuthorization.updateMany({
      where: { id: authorization.id, version: authorization.version },
      data: {
        capturedMinor: captured.toString(),
        reversedMinor: reversed.toString(),
        status: closed ? "closed" : "pending",
        version: { increment: 1 },
        updatedAt: new Date(),
      },
    });
    if (count === 0) throw new ServiceError("CARD_RECORD_CONFLICT", "The authorization changed concurrently; retry");
    if (closed) {
      await tx.cardTransaction.updateMany({
        where: { authorizationId: authorization.id, type: "authorization" },
        data: { status: "closed" },
      });
    }
    return tx.cardAuthorization.findUniqueOrThrow({ where: { id: authorization.id } });
  });
}
