// The bank transfer provider API the domain uses (bank-transfer endpoints and the corridor's bank legs). Every adapter of
// the bank_transfer category implements it as `capabilities.bankTransfers`.
import type { components } from "../../generated/openapi.ts";
import type { SimulatedBankStore } from "./simulated-bank-store.ts";

export type BankAccount = components["schemas"]["BankAccount"];
export type BankRail = components["schemas"]["BankRail"];
export type BankTransferStatus = components["schemas"]["BankTransferStatus"];
export type BankTransferFailure = components["schemas"]["BankTransferFailureReason"];

export interface BankCallContext {
  /** The connection's config (validated by the adapter's `parseConfig`). */
  config: Record<string, unknown>;
  now: Date;
  /** The sandbox simulator's books (a live provider keeps its own and ignores them). Without them the simulator is
   * stateless: it cannot tell what it executed, so `lookup` fails. */
  books?: SimulatedBankStore;
}

export interface BankTransferOrder {
  /** Stable key of the caller's intent: the same key never creates a second transfer at the provider. */
  idempotencyKey: string;
  amount: string;
  currency: string;
  rail: BankRail;
  source: BankAccount;
  destination: BankAccount;
  reference: string | null;
  purposeCode: string | null;
}

/** What the caller last recorded of a transfer; live providers ignore it, the stateless simulator advances from it. */
export interface KnownBankTransfer {
  providerTransferId: string;
  status: BankTransferStatus;
  amount: string;
  rail: BankRail;
  reference: string | null;
}

export interface ProviderBankTransferState {
  status: BankTransferStatus;
  providerReference: string | null;
  failureReason: BankTransferFailure | null;
}

/** What a provider knows of an order by its idempotency key. */
export type BankTransferLookup = { executed: true; providerTransferId: string } | { executed: false };

export interface BankTransferApi {
  /** Whether the provider serves this route; throws ProviderExecutionError when it cannot answer. */
  checkRoute(
    ctx: BankCallContext,
    route: { rail: BankRail; currency: string; sourceCountry: string; destinationCountry: string; reference: string | null },
  ): Promise<{ available: boolean; reason: string | null }>;
  /** Executes the order once per `idempotencyKey`: a repeated call answers the transfer the first one created. */
  create(ctx: BankCallContext, order: BankTransferOrder): Promise<{ providerTransferId: string }>;
  /** Whether the order (or the cancellation) with this idempotency key was executed, and as which transfer (the
   * reconciler asks this after an unknown outcome: server/domain/reconcile/). Throws when the provider cannot answer (the reconciler tries again). */
  lookup(ctx: BankCallContext, idempotencyKey: string): Promise<BankTransferLookup>;
  get(ctx: BankCallContext, known: KnownBankTransfer): Promise<ProviderBankTransferState>;
  /** Cancels a pending or processing transfer, once per `reference` (the cancellation's idempotency key: a repeated call
   * cancels nothing more, and `lookup(reference)` answers whether it executed — the reconciler asks that after an
   * unknown outcome). Throws ProviderExecutionError when the provider refuses. */
  cancel(ctx: BankCallContext, known: KnownBankTransfer, reference: string): Promise<void>;
}
