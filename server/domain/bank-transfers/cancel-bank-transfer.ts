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
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { isCancellableBankStatus } from "./bank-transfer-statuses.ts";
import { findBankTransfer, lockBankTransfer } from "./find-bank-transfer.ts";
import { knownTransfer } from "./get-bank-transfer-status.ts";
import { moveBankTransfer } from "./move-bank-transfer.ts";

function assertCancellable(row: BankTransferRow): void {
  if (!isCancellableBankStatus(row.status)) {
    throw new ServiceError("STATE_CONFLICT", `The transfer is ${row.status}; only pending or processing transfers can be cancelled`);
  }
}

export async function cancelBankTransfer(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    request: components["schemas"]["BankTransferLookupRequest"];
  },
): Promise<ProviderStep<void, OperationOutcome<"cancelBankTransfer">>> {
  const { auth, request } = options;
  const found = await findBankTransfer(uow.tx, auth, request);
  const provider = await connectProvider(uow.tx, auth, "bank_transfer");
  assertCancellable(found);
  const now = uow.now;
  return afterProviderCall({
    call: () =>
      callProvider({ provider: "bank_transfer", what: "cancel the transfer" }, () =>
        provider.api.cancel({ config: provider.config, now }, knownTransfer(found)),
      ),
    async onResult(uow2) {
      const cancel = (row: BankTransferRow) => moveBankTransfer(uow2, row, "cancelled", now);
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
