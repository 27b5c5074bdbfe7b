import { compareAndSet } from "../../db/compare-and-set.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { decimalToMinor } from "./card-amount.ts";
import type { CardAuthorizationRow } from "./card-rows.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Adds captured / reversed amounts to an authorization (version-checked); when nothing is held any more it closes, and
 * so does its `authorization` transaction. */
export async function updateAuthorization(
  uow: UnitOfWork,
  authorization: CardAuthorizationRow,
  add: { capturedMinor?: bigint; reversedMinor?: bigint },
): Promise<CardAuthorizationRow> {
  const captured = decimalToMinor(authorization.capturedMinor) + (add.capturedMinor ?? 0n);
  const reversed = decimalToMinor(authorization.reversedMinor) + (add.reversedMinor ?? 0n);
  const closed = captured + reversed >= decimalToMinor(authorization.amountMinor);
  return guardCardWrite("record", async () => {
    const updated = await compareAndSet(uow.tx, "CardAuthorization", authorization, {
      capturedMinor: captured.toString(),
      reversedMinor: reversed.toString(),
      status: closed ? "closed" : "pending",
      updatedAt: uow.now,
    });
    if (!updated) throw new ServiceError("CARD_RECORD_CONFLICT", "The authorization changed concurrently; retry");
    if (closed) await setAuthorizationTransactionStatus(uow, authorization.id, "closed");
    return updated;
  });
}

/** The status of an authorization's own `authorization` transaction (closed with it, reopened by a compensation). */
export async function setAuthorizationTransactionStatus(uow: UnitOfWork, authorizationId: string, status: "pending" | "closed") {
  await uow.tx
    .updateTable("CardTransaction")
    .set({ status })
    .where("authorizationId", "=", authorizationId)
    .where("type", "=", "authorization")
    .execute();
}

/** Compensation of updateAuthorization when the issuer refused the capture or reversal: takes the amounts back off the
 * authorization (exactly as it was when nothing else changed it since) and reopens its transaction if it closed. */
export async function revertAuthorizationUpdate(uow: UnitOfWork, before: CardAuthorizationRow, after: CardAuthorizationRow): Promise<void> {
  const current = await uow.tx.selectFrom("CardAuthorization").selectAll().where("id", "=", before.id).forUpdate().executeTakeFirst();
  if (!current) return;
  const untouched = current.version === after.version;
  const captured = decimalToMinor(current.capturedMinor) - (decimalToMinor(after.capturedMinor) - decimalToMinor(before.capturedMinor));
  const reversed = decimalToMinor(current.reversedMinor) - (decimalToMinor(after.reversedMinor) - decimalToMinor(before.reversedMinor));
  const closed = captured + reversed >= decimalToMinor(current.amountMinor);
  await uow.tx
    .updateTable("CardAuthorization")
    .set({
      capturedMinor: captured.toString(),
      reversedMinor: reversed.toString(),
      status: closed ? "closed" : "pending",
      version: untouched ? before.version : current.version + 1,
      updatedAt: untouched ? before.updatedAt : uow.now,
    })
    .where("id", "=", before.id)
    .execute();
  if (current.status === "closed" && !closed) await setAuthorizationTransactionStatus(uow, before.id, "pending");
}
