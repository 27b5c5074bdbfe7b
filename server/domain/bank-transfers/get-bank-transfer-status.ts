// POST bank-transfer/status: a non-terminal transfer is refreshed from the provider first; a change is recorded.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { BankTransfer } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import type { KnownBankTransfer } from "../../providers/capabilities/bank-transfers.ts";
import { formatCurrencyAmount } from "./bank-rails.ts";
import { type BankTransferDto, type StatusChange, toBankTransferDto } from "./bank-transfer-dto.ts";
import { callBankProvider } from "./call-bank-provider.ts";
import { findBankTransfer, lockBankTransfer, TERMINAL_BANK_STATUSES } from "./find-bank-transfer.ts";
import type { PreparedWrite } from "./prepared-write.ts";
import { type ResolvedBankProvider, resolveBankProvider } from "./resolve-bank-provider.ts";

/** Moves the provider may report from each state (documented on `BankTransferStatus`). */
const NEXT: Readonly<Record<string, readonly string[]>> = {
  pending: ["processing", "cancelled", "failed"],
  processing: ["completed", "failed", "returned", "cancelled"],
};

export const knownTransfer = (row: BankTransfer): KnownBankTransfer => ({
  providerTransferId: row.providerTransferId ?? row.id,
  status: row.status as KnownBankTransfer["status"],
  amount: formatCurrencyAmount(BigInt(row.amountMinor.toFixed(0)), row.currency),
  rail: row.rail as KnownBankTransfer["rail"],
  reference: row.reference,
});

export async function getBankTransferStatus(options: {
  prisma: Db;
  auth: AuthContext;
  request: components["schemas"]["BankTransferLookupRequest"];
}): Promise<PreparedWrite<BankTransferDto>> {
  const { prisma, auth, request } = options;
  const found = await findBankTransfer(prisma, auth, request);
  const provider = await resolveBankProvider(prisma, auth);
  return {
    status: 200,
    commit: async (tx) => toBankTransferDto(await refreshBankTransfer(tx, provider, found.id)),
  };
}

/** Asks the provider for news of a non-terminal transfer and records a change (row-locked, versioned). */
export async function refreshBankTransfer(tx: Tx, provider: ResolvedBankProvider, id: string): Promise<BankTransfer> {
  const row = await lockBankTransfer(tx, id);
  if (TERMINAL_BANK_STATUSES.has(row.status)) return row;
  const now = new Date();
  const state = await callBankProvider("report the transfer", () => provider.api.get({ config: provider.config, now }, knownTransfer(row)));
  if (state.status === row.status) return row;
  if (!NEXT[row.status]?.includes(state.status)) {
    throw new ServiceError(
      "PROVIDER_EXECUTION_FAILED",
      `The bank transfer provider reported ${state.status} for a ${row.status} transfer; the stored transfer is unchanged`,
    );
  }
  const history = [...(row.statusHistory as unknown as StatusChange[]), { status: state.status, at: now.toISOString() }];
  const { count } = await tx.bankTransfer.updateMany({
    where: { id: row.id, version: row.version },
    data: {
      status: state.status,
      providerReference: state.providerReference ?? row.providerReference,
      failureReason: state.failureReason ?? undefined,
      statusHistory: history,
      version: { increment: 1 },
      updatedAt: now,
    },
  });
  // The row is locked for this transaction, so the version cannot have moved.
  if (count === 0) throw new Error(`bank transfer ${row.id} changed under its row lock`);
  return tx.bankTransfer.findUniqueOrThrow({ where: { id: row.id } });
}
