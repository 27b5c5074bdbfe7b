// The events of a bank transfer: one per state it enters, with the transfer as POST bank-transfer/status answers it.
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";

/** The event of each state a transfer enters (npm run check:invariants holds events to it). */
export const BANK_TRANSFER_EVENT_OF: Readonly<Record<string, EventType>> = {
  pending: "bank_transfer.created",
  processing: "bank_transfer.submitted",
  completed: "bank_transfer.completed",
  failed: "bank_transfer.failed",
  returned: "bank_transfer.returned",
  cancelled: "bank_transfer.cancelled",
};

/** The event of the state `row` is now in (created for `pending`). */
export function emitBankTransferEvent(uow: UnitOfWork, row: BankTransferRow): void {
  const type = BANK_TRANSFER_EVENT_OF[row.status];
  if (!type) throw new TypeError(`bank transfer status ${row.status} has no event type`);
  emitEvent(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type,
    resourceId: row.id,
    data: toBankTransferDto(row),
    simulated: row.simulated,
  });
}
