// A custody wallet's moves and the reasons the reconciler writes (issue 26). Shared by the activation
// (create-custody-wallet.ts) and its reconciler handler (reconcile-custody-wallet.ts).
import { compareAndSet } from "../../db/compare-and-set.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { CustodyWalletRow } from "./custody-dto.ts";
import { emitCustodyWalletEvent } from "./custody-events.ts";
import { conflict } from "./custody-provider.ts";

/** The provider intent family of a wallet's activation (server/domain/reconcile/intent-handlers.ts). */
export const CUSTODY_WALLET_ACTIVATE = "custody_wallet.activate";

/** Why the reconciler failed a wallet the custody provider never created. */
export const WALLET_NOT_EXECUTED = {
  code: "not_executed",
  message: "The custody provider has no vault under this wallet's id: it was never created. Request a new wallet.",
} as const;

/** Why the reconciler failed a wallet whose creation the custody provider could not confirm after its last attempt. */
export const walletOutcomeUnconfirmed = (attempts: number, lastError: string) => ({
  code: "outcome_unconfirmed" as const,
  message:
    `The custody provider could not confirm whether it created this wallet after ${attempts} attempts (last: ${lastError}). Check with the custodian.`.slice(
      0,
      500,
    ),
});

export const notPending = (wallet: Pick<CustodyWalletRow, "status">) =>
  conflict(`The wallet is ${wallet.status}; only a pending_approval wallet can be activated`);

type WalletMove = Partial<Pick<CustodyWalletRow, "status" | "address" | "providerWalletId" | "provider" | "connectionId" | "simulated">> & {
  failureReason?: unknown;
};

/** Compare-and-set on the version read; 409 with the wallet's current status when another writer moved it first. Emits
 * the move's event. */
export async function moveWallet(uow: UnitOfWork, wallet: CustodyWalletRow, data: WalletMove): Promise<CustodyWalletRow> {
  const { failureReason, ...columns } = data;
  const row = await compareAndSet(uow.tx, "CustodyWallet", wallet, {
    ...columns,
    ...(failureReason !== undefined ? { failureReason: JSON.stringify(failureReason) } : {}),
    updatedAt: uow.now,
  });
  if (row) {
    emitCustodyWalletEvent(uow, row);
    return row;
  }
  const current = await uow.tx.selectFrom("CustodyWallet").select("status").where("id", "=", wallet.id).executeTakeFirstOrThrow();
  throw notPending(current);
}
