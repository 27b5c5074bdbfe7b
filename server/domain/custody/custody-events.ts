// The events of custody wallets and transfers: one per state entered, with the resource as the API answers it.
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";
import { type CustodyTransferRow, type CustodyWalletRow, toCustodyTransferDto, toCustodyWalletDto } from "./custody-dto.ts";

const WALLET_ENTERED: Readonly<Record<string, EventType>> = {
  pending_approval: "custody_wallet.created",
  processing: "custody_wallet.processing",
  active: "custody_wallet.activated",
  rejected: "custody_wallet.rejected",
  failed: "custody_wallet.failed",
};

const TRANSFER_ENTERED: Readonly<Record<string, EventType>> = {
  pending_approval: "custody_transfer.created",
  approved: "custody_transfer.approved",
  submitted: "custody_transfer.submitted",
  completed: "custody_transfer.completed",
  failed: "custody_transfer.failed",
  rejected: "custody_transfer.rejected",
  cancelled: "custody_transfer.cancelled",
};

function typeOf(table: Readonly<Record<string, EventType>>, what: string, status: string): EventType {
  const type = table[status];
  if (!type) throw new TypeError(`${what} status ${status} has no event type`);
  return type;
}

/** The event of the state the wallet is now in (created for `pending_approval`). */
export function emitCustodyWalletEvent(uow: UnitOfWork, row: CustodyWalletRow): void {
  emitEvent(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: typeOf(WALLET_ENTERED, "custody wallet", row.status),
    resourceId: row.id,
    data: toCustodyWalletDto(row),
    simulated: row.simulated,
  });
}

/** The event of the state the transfer is now in (created for `pending_approval`). */
export function emitCustodyTransferEvent(uow: UnitOfWork, row: CustodyTransferRow): void {
  emitEvent(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: typeOf(TRANSFER_ENTERED, "custody transfer", row.status),
    resourceId: row.id,
    data: toCustodyTransferDto(row),
    simulated: row.simulated,
  });
}
