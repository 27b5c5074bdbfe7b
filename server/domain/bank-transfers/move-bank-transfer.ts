import { compareAndSet } from "../../db/compare-and-set.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { BankTransferRow, StatusChange } from "./bank-transfer-dto.ts";
import { emitBankTransferEvent } from "./bank-transfer-events.ts";

/** A status change of a transfer, appended to its history: compare-and-set on the version read, so it answers undefined
 * when another writer (a cancel, a status refresh) moved the transfer first. `columns` are written with it. The change's
 * event is emitted only when this request's compare-and-set won, so concurrent refreshes emit it once. */
export async function moveBankTransfer(
  uow: UnitOfWork,
  row: BankTransferRow,
  status: string,
  now: Date,
  columns: { providerReference?: string | null; failureReason?: string } = {},
): Promise<BankTransferRow | undefined> {
  const moved = await compareAndSet(uow.tx, "BankTransfer", row, {
    status,
    ...columns,
    statusHistory: JSON.stringify([...(row.statusHistory as StatusChange[]), { status, at: now.toISOString() }]),
    updatedAt: now,
  });
  if (moved) emitBankTransferEvent(uow, moved);
  return moved;
}
