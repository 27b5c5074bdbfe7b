// POST bank-transfer/cancel: only `pending` and `processing` transfers can be cancelled (409 STATE_CONFLICT otherwise).
//
// Two transactions (server/db/unit-of-work/provider-step.ts): the provider is asked with no transaction open. The first checks the
// transfer (a storage failure asks nothing) and opens a provider intent (issue 26, family `bank_transfer.cancel`); the
// bank cancels under the reference `<transfer id>:cancel` (a repeated call cancels nothing more); the second records
// the cancellation and closes the intent, compare-and-set on the version read first (re-checked under a row lock when
// a status refresh moved the transfer in between). A provider refusal (502) records nothing.
//
// When the bank's answer is lost (a timeout: it may have cancelled), the transfer is left as it stands and answered
// 202; the reconciler (reconcile-bank-transfer-cancel.ts) asks the bank by the reference and settles it — `cancelled`,
// or unchanged with 502 as the key's final answer. Until then a status refresh leaves the transfer alone
// (get-bank-transfer-status.ts). A crash between the two transactions leaves the intent to the reconciler the same way.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { SimulatedBankStore } from "../../providers/capabilities/simulated-bank-store.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { BANK_TRANSFER_CANCEL, cancelReference } from "./bank-transfer-outcome.ts";
import { isCancellableBankStatus } from "./bank-transfer-statuses.ts";
import { findBankTransfer, lockBankTransfer } from "./find-bank-transfer.ts";
import { knownTransfer } from "./get-bank-transfer-status.ts";
import { moveBankTransfer } from "./move-bank-transfer.ts";

function assertCancellable(row: BankTransferRow): void {
  if (!isCancellableBankStatus(row.status)) {
    throw new ServiceError("STATE_CONFLICT", `The transfer is ${row.status}; only pending or processing transfers can be cancelled`);
  }
}

/** The bank cancelled it: `cancelled` with its event — whoever learned it (the request, or the reconciler, which
 * passes the row it locked). Throws STATE_CONFLICT when another writer moved it to a state that cannot be cancelled. */
export async function recordCancellation(uow: UnitOfWork, row: BankTransferRow): Promise<BankTransferRow> {
  const cancel = (current: BankTransferRow) => moveBankTransfer(uow, current, "cancelled", uow.now);
  const updated = await cancel(row);
  if (updated) return updated;
  // A status refresh moved the transfer after the first transaction read it.
  const current = await lockBankTransfer(uow.tx, row.id);
  assertCancellable(current);
  const again = await cancel(current);
  if (!again) throw new Error(`bank transfer ${row.id} changed under its row lock`);
  return again;
}

export async function cancelBankTransfer(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    request: components["schemas"]["BankTransferLookupRequest"];
    /** The sandbox simulator's books (a live bank ignores them). */
    books: SimulatedBankStore;
  },
): Promise<ProviderStep<void, OperationOutcome<"cancelBankTransfer">>> {
  const { auth, request, books } = options;
  const found = await findBankTransfer(uow.tx, auth, request);
  const provider = await connectProvider(uow.tx, auth, "bank_transfer");
  assertCancellable(found);
  const now = uow.now;
  const reference = cancelReference(found.id);
  return afterProviderCall<void, OperationOutcome<"cancelBankTransfer">>({
    intent: {
      family: BANK_TRANSFER_CANCEL,
      resourceId: found.id,
      reference,
      organizationId: auth.organizationId,
      environment: auth.environment,
    },
    call: () =>
      callProvider({ provider: "bank_transfer", what: "cancel the transfer" }, () =>
        provider.api.cancel({ config: provider.config, now, books }, knownTransfer(found), reference),
      ),
    async onResult(uow2) {
      return { status: 200, body: toBankTransferDto(await recordCancellation(uow2, found)) };
    },
    // The bank may have cancelled it: nothing is recorded until the reconciler knows; the transfer as it stands.
    async onUnknown() {
      return { status: 202, body: toBankTransferDto(found) };
    },
  });
}
