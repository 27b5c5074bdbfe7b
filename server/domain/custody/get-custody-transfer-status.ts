// POST custody/transfers/status: by custodyTransferId (shape 1) or the provider's transferId (shape 2). A `submitted`
// transfer is reconciled with the provider first (version +1 on a final state). That takes two transactions, as no
// transaction stays open across a provider call: the first reads the transfer, the second records what the provider
// reported (compare-and-set on the version read). A transfer moved meanwhile by another writer is answered as it now is.
// A `submitted` transfer without `transferId` (its submission's answer was lost) is answered as stored: the reconciler
// confirms it with the provider (reconcile-custody-transfer.ts).
import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { SimulatedCustodyStore } from "../../providers/capabilities/simulated-custody-store.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { findCustodyTransfer } from "./create-custody-transfer.ts";
import { toCustodyTransferDto } from "./custody-dto.ts";
import type { CustodyOutcome } from "./custody-provider.ts";
import type { CustodyTransferStatusRequest } from "./custody-requests.ts";
import { awaitsConfirmation, reconcileStep } from "./custody-transfer-steps.ts";

export async function getCustodyTransferStatus(
  uow: UnitOfWork,
  options: {
    /** The simulator's books on the database itself, for the provider (called between the unit of work's two
     * transactions). */
    books: SimulatedCustodyStore;
    auth: AuthContext;
    /** Tagged at the HTTP edge (custodyTransferStatusRequest). */
    request: CustodyTransferStatusRequest;
  },
): Promise<CustodyOutcome<"getCustodyTransferStatus">> {
  const { books, auth, request } = options;
  const provider = await connectProvider(uow.tx, auth, "custody");
  const where = request.kind === "by-custody-transfer-id" ? { id: request.custodyTransferId } : { providerTransferId: request.transferId };
  const row = await findCustodyTransfer(uow.tx, auth, where);
  // Not submitted, or its submission's outcome is being confirmed (the reconciler settles it): answered as stored.
  if (row.status !== "submitted" || awaitsConfirmation(row)) return { status: 200, body: toCustodyTransferDto(row) };
  return reconcileStep(books, provider, row, (current) => current);
}
