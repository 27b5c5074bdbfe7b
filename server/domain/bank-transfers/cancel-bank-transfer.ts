// POST bank-transfer/cancel: only `pending` and `processing` transfers can be cancelled (409 STATE_CONFLICT otherwise).
// The cancellation is recorded first and the provider asked in the same transaction: a storage failure asks nothing,
// a provider refusal (502) records nothing.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { type BankTransferDto, type StatusChange, toBankTransferDto } from "./bank-transfer-dto.ts";
import { callBankProvider } from "./call-bank-provider.ts";
import { findBankTransfer, lockBankTransfer } from "./find-bank-transfer.ts";
import { knownTransfer } from "./get-bank-transfer-status.ts";
import type { PreparedWrite } from "./prepared-write.ts";
import { resolveBankProvider } from "./resolve-bank-provider.ts";

const CANCELLABLE = new Set(["pending", "processing"]);

export async function cancelBankTransfer(options: {
  prisma: Db;
  auth: AuthContext;
  request: components["schemas"]["BankTransferLookupRequest"];
}): Promise<PreparedWrite<BankTransferDto>> {
  const { prisma, auth, request } = options;
  const found = await findBankTransfer(prisma, auth, request);
  const provider = await resolveBankProvider(prisma, auth);
  return {
    status: 200,
    async commit(tx) {
      const row = await lockBankTransfer(tx, found.id);
      if (!CANCELLABLE.has(row.status)) {
        throw new ServiceError("STATE_CONFLICT", `The transfer is ${row.status}; only pending or processing transfers can be cancelled`);
      }
      const now = new Date();
      const history = [...(row.statusHistory as unknown as StatusChange[]), { status: "cancelled", at: now.toISOString() }];
      const updated = await tx.bankTransfer.update({
        where: { id: row.id, version: row.version },
        data: { status: "cancelled", statusHistory: history, version: { increment: 1 }, updatedAt: now },
      });
      await callBankProvider("cancel the transfer", () => provider.api.cancel({ config: provider.config, now }, knownTransfer(row)));
      return toBankTransferDto(updated);
    },
  };
}
