// The custody provider API the domain uses (custody endpoints and the corridor's custody leg). Every adapter of the
// custody category implements it as `capabilities.custody`. Writes carry a stable idempotency key, so a retry after a
// crash never creates a second wallet or a second transfer at the provider.
import type { SimulatedCustodyStore } from "./simulated-custody-store.ts";

export interface CustodyCallContext {
  config: Record<string, unknown>;
  /** The sandbox simulator's books (its storage port; a live custodian keeps its own and ignores it). The custody
   * endpoints pass them on the database itself: a request's transaction is never open across a provider call. A caller
   * that passes them inside its open transaction (the corridor dispatcher) gets the simulator's effects inside it
   * (behind a savepoint), committing or rolling back with its own record of them. */
  books: SimulatedCustodyStore;
  now: Date;
}

export interface ProviderWallet {
  providerWalletId: string;
  address: string;
}

export interface ProviderBalance {
  asset: string;
  /** Minor units, digit string. */
  amountMinor: string;
  decimals: number;
}

export type ProviderTransferState = "submitted" | "completed" | "failed";

export interface ProviderCustodyTransfer {
  providerTransferId: string;
  providerWalletId: string;
  state: ProviderTransferState;
  asset: string;
  amountMinor: string;
  destination: string;
  txHash: string | null;
  failure: { code: "provider_failed" | "insufficient_funds" | "transaction_reverted"; message: string } | null;
}

export interface CustodyApi {
  /** The wallet created earlier under this idempotency key, or null. */
  findWallet(ctx: CustodyCallContext, input: { idempotencyKey: string }): Promise<ProviderWallet | null>;
  createWallet(
    ctx: CustodyCallContext,
    input: { idempotencyKey: string; chain: string; type: string; label: string },
  ): Promise<ProviderWallet>;
  getBalances(ctx: CustodyCallContext, input: { providerWalletId: string; chain: string }): Promise<ProviderBalance[]>;
  submitTransfer(
    ctx: CustodyCallContext,
    input: {
      idempotencyKey: string;
      providerWalletId: string;
      chain: string;
      destination: string;
      asset: string;
      amountMinor: string;
      note: string | null;
    },
  ): Promise<{ providerTransferId: string }>;
  /** The transfer submitted earlier under this idempotency key, or null: whether a submission whose answer was lost
   * executed (the reconciler asks it; issue 26). */
  findTransfer(ctx: CustodyCallContext, input: { idempotencyKey: string }): Promise<{ providerTransferId: string } | null>;
  /** The provider's view of a transfer; null when it does not know the id. */
  getTransfer(ctx: CustodyCallContext, input: { providerTransferId: string }): Promise<ProviderCustodyTransfer | null>;
}
