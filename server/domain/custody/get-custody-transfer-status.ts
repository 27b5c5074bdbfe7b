// POST custody/transfers/status: by custodyTransferId (shape 1) or the provider's transferId (shape 2). A `submitted`
// transfer is reconciled with the provider first (row-locked, version +1 on a final state).
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import type { PreparedWrite } from "../bank-transfers/prepared-write.ts";
import { findCustodyTransfer } from "./create-custody-transfer.ts";
import { type CustodyTransferDto, toCustodyTransferDto } from "./custody-dto.ts";
import { resolveCustodyProvider } from "./custody-provider.ts";
import { lockTransfer, reconcileTransfer } from "./custody-transfer-steps.ts";

export async function getCustodyTransferStatus(options: {
  prisma: Db;
  auth: AuthContext;
  request: components["schemas"]["CustodyTransferStatusRequest"];
}): Promise<PreparedWrite<CustodyTransferDto>> {
  const { prisma, auth, request } = options;
  const provider = await resolveCustodyProvider(prisma, auth);
  const where = "custodyTransferId" in request ? { id: request.custodyTransferId } : { providerTransferId: request.transferId };
  const transfer = await findCustodyTransfer(prisma, auth, where);
  return {
    status: 200,
    async commit(tx) {
      const row = await lockTransfer(tx, transfer.id);
      return toCustodyTransferDto(row.status === "submitted" ? await reconcileTransfer(tx, provider, row) : row);
    },
  };
}
