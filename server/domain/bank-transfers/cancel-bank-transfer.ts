// POST bank-transfer/cancel: only `pending` and `processing` transfers can be cancelled (409 STATE_CONFLICT otherwise).
//
// Two transactions (server/db/unit-of-work.ts): the provider is asked with no transaction open. The first checks the
// transfer (a storage failure asks nothing); the provider cancels; the second records the cancellation, compare-and-set
// on the version read first (re-checked under a row lock when a status refresh moved the transfer in between). A
// provider refusal (502) records nothing.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { type BankTransferRow, type StatusChange, toBankTransferDto } from "./bank-transfer-dto.ts";
import { callBankProvider } from "./call-bank-provider.ts";
import { findBankTransfer, lockBankTransfer } from "./find-bank-transfer.ts";
import { knownTransfer } from "./get-bank-transfer-status.ts";
import { resolveBankProvider } from "./resolve-bank-provider.ts";

const CANCELLABLE = new Set(["pending", "processing"]);

function assertCancellable(row: BankTransferRow): void {
  if (!CANCELLABLE.has(row.status)) {
    throw new ServiceError("STATE_CONFLICT", `The transfer is ${row.status}; only pending or processing transfers can be cancelled`);
  }
}

export async function cancelBankTransfer(options: {
  uow: UnitOfWork;
  auth: AuthContext;
  request: components["schemas"]["BankTransferLookupRequest"];
}): Promise<ProviderStep<void>> {
  const { uow, auth, request } = options;
  const found = await findBankTransfer(uow.tx, auth, request);
  const provider = await resolveBankProvider(uow.tx, auth);
  assertCancellable(found);
  const now = uow.now;
  return afterProviderCall({
    call: () => callBankProvider("cancel the transfer", () => provider.api.cancel({ config: provider.config, now }, knownTransfer(found))),
    async onResult(uow2) {
      const cancel = (row: BankTransferRow) =>
        uow2.tx
          .updateTable("BankTransfer")
          .set({
            status: "cancelled",
            statusHistory: JSON.stringify([...(row.statusHistory as StatusChange[]), { status: "cancelled", at: now.toISOString() }]),
            version: row.version + 1,
            updatedAt: now,
          })
          .where("id", "=", row.id)
          .where("version", "=", row.version)
          .returningAll()
          .executeTakeFirst();
      let updated = await cancel(found);
      if (!updated) {
        // A status refresh moved the transfer after the first transaction read it.
        const current = await lockBankTransfer(uow2.tx, found.id);
        assertCancellable(current);
        updated = await cancel(current);
        if (!updated) throw new Error(`bank transfer ${found.id} changed under its row lock`);
      }
      return { status: 200, body: toBankTransferDto(updated) };
    },
  });
}
