// POST bank-transfer/status: a non-terminal transfer is refreshed from the provider first; a change is recorded.
//
// Two transactions when the transfer is not terminal (server/db/unit-of-work.ts): the provider is asked with no
// transaction open. The first reads the transfer; the second records what the provider reported, compare-and-set on
// the version read first. When another refresh recorded a change in between, the report is stale (it answers for a
// state the transfer has left): the request starts over when it has no Idempotency-Key, else it answers the transfer as
// now stored. A terminal transfer is answered as stored, in one transaction.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type Outcome, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { KnownBankTransfer, ProviderBankTransferState } from "../../providers/capabilities/bank-transfers.ts";
import { numericToMinor } from "../money/minor-units.ts";
import { formatCurrencyAmount } from "./bank-rails.ts";
import { type BankTransferRow, type StatusChange, toBankTransferDto } from "./bank-transfer-dto.ts";
import { callBankProvider } from "./call-bank-provider.ts";
import { findBankTransfer, TERMINAL_BANK_STATUSES } from "./find-bank-transfer.ts";
import { resolveBankProvider } from "./resolve-bank-provider.ts";

/** Moves the provider may report from each state (documented on `BankTransferStatus`). */
const NEXT: Readonly<Record<string, readonly string[]>> = {
  pending: ["processing", "cancelled", "failed"],
  processing: ["completed", "failed", "returned", "cancelled"],
};

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

export async function getBankTransferStatus(options: {
  uow: UnitOfWork;
  auth: AuthContext;
  request: components["schemas"]["BankTransferLookupRequest"];
  /** A stale report throws StaleBankTransferRefresh (the caller starts over) instead of answering the stored transfer. */
  restartWhenStale: boolean;
}): Promise<Outcome | ProviderStep<ProviderBankTransferState>> {
  const { uow, auth, request, restartWhenStale } = options;
  const row = await findBankTransfer(uow.tx, auth, request);
  const provider = await resolveBankProvider(uow.tx, auth);
  if (TERMINAL_BANK_STATUSES.has(row.status)) return { status: 200, body: toBankTransferDto(row) };
  const now = uow.now;
  return afterProviderCall({
    async call() {
      const state = await callBankProvider("report the transfer", () =>
        provider.api.get({ config: provider.config, now }, knownTransfer(row)),
      );
      if (state.status !== row.status && !NEXT[row.status]?.includes(state.status)) {
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
      const history = [...(row.statusHistory as StatusChange[]), { status: state.status, at: now.toISOString() }];
      const updated = await uow2.tx
        .updateTable("BankTransfer")
        .set({
          status: state.status,
          providerReference: state.providerReference ?? row.providerReference,
          ...(state.failureReason ? { failureReason: JSON.stringify(state.failureReason) } : {}),
          statusHistory: JSON.stringify(history),
          version: row.version + 1,
          updatedAt: now,
        })
        .where("id", "=", row.id)
        .where("version", "=", row.version)
        .returningAll()
        .executeTakeFirst();
      if (updated) return { status: 200, body: toBankTransferDto(updated) };
      if (restartWhenStale) throw new StaleBankTransferRefresh(row.id);
      return { status: 200, body: toBankTransferDto(await current()) };
    },
  });
}
