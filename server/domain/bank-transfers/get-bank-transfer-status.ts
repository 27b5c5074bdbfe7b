// POST bank-transfer/status: a non-terminal transfer is refreshed from the provider first; a change is recorded.
//
// Two transactions when the transfer is not terminal (server/db/unit-of-work/provider-step.ts): the provider is asked with no
// transaction open. The first reads the transfer; the second records what the provider reported, compare-and-set on
// the version read first. When another refresh recorded a change in between, the report is stale (it answers for a
// state the transfer has left): the request starts over when it has no Idempotency-Key, else it answers the transfer as
// now stored. A terminal transfer, or one whose creation or cancellation the bank has not confirmed yet, is answered as
// stored, in one transaction.
import type { AuthContext } from "../../context.ts";
import { hasOpenIntent } from "../../db/provider-intents.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import type { KnownBankTransfer, ProviderBankTransferState } from "../../providers/capabilities/bank-transfers.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { formatCurrencyAmount } from "./bank-rails.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { BANK_TRANSFER_CANCEL } from "./bank-transfer-outcome.ts";
import { isAcceptedProviderReport, isTerminalBankStatus } from "./bank-transfer-statuses.ts";
import { findBankTransfer } from "./find-bank-transfer.ts";
import { moveBankTransfer } from "./move-bank-transfer.ts";

/** Thrown in the second transaction when another refresh recorded a change after this one read the transfer. */
export class StaleBankTransferRefresh extends Error {
  constructor(id: string) {
    super(`bank transfer ${id} changed while the provider was asked`);
  }
}

export const knownTransfer = (row: BankTransferRow): KnownBankTransfer => ({
  providerTransferId: row.providerTransferId ?? row.id,
  status: row.status as KnownBankTransfer["status"],
  amount: formatCurrencyAmount(numericToMinor(row.amountMinor, 0), row.currency),
  rail: row.rail as KnownBankTransfer["rail"],
  reference: row.reference,
});

type StatusOutcome = OperationOutcome<"getBankTransferStatus">;

export async function getBankTransferStatus(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    request: components["schemas"]["BankTransferLookupRequest"];
    /** A stale report throws StaleBankTransferRefresh (the caller starts over) instead of answering the stored transfer. */
    restartWhenStale: boolean;
  },
): Promise<StatusOutcome | ProviderStep<ProviderBankTransferState, StatusOutcome>> {
  const { auth, request, restartWhenStale } = options;
  const row = await findBankTransfer(uow.tx, auth, request);
  const provider = await connectProvider(uow.tx, auth, "bank_transfer");
  // A transfer the bank has not confirmed yet (no bank id: its creation's outcome is being reconciled) is not refreshed
  // either: a report for a transfer the bank may never have executed would advance it blind.
  if (isTerminalBankStatus(row.status) || row.providerTransferId === null) return { status: 200, body: toBankTransferDto(row) };
  // Nor one whose cancellation's outcome is being confirmed (cancel-bank-transfer.ts): the bank may have cancelled it, and
  // a report advancing it meanwhile would contradict what the reconciler then finds.
  if (await hasOpenIntent(uow.tx, BANK_TRANSFER_CANCEL, row.id)) return { status: 200, body: toBankTransferDto(row) };
  const now = uow.now;
  return afterProviderCall({
    async call() {
      const state = await callProvider({ provider: "bank_transfer", what: "report the transfer" }, () =>
        provider.api.get({ config: provider.config, now }, knownTransfer(row)),
      );
      if (!isAcceptedProviderReport(row.status, state.status)) {
        throw new ServiceError(
          "PROVIDER_EXECUTION_FAILED",
          `The bank transfer provider reported ${state.status} for a ${row.status} transfer; the stored transfer is unchanged`,
        );
      }
      return state;
    },
    async onResult(uow2, state) {
      const current = () => uow2.tx.selectFrom("BankTransfer").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
      if (state.status === row.status) return { status: 200, body: toBankTransferDto(await current()) };
      const updated = await moveBankTransfer(uow2, row, state.status, now, {
        providerReference: state.providerReference ?? row.providerReference,
        ...(state.failureReason ? { failureReason: JSON.stringify(state.failureReason) } : {}),
      });
      if (updated) return { status: 200, body: toBankTransferDto(updated) };
      if (restartWhenStale) throw new StaleBankTransferRefresh(row.id);
      return { status: 200, body: toBankTransferDto(await current()) };
    },
  });
}
