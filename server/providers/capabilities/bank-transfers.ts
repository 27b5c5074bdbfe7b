// The bank transfer provider API the domain uses (bank-transfer endpoints and the corridor's bank legs). Every adapter of
// the bank_transfer category implements it as `capabilities.bankTransfers`.
import type { components } from "../../generated/openapi.ts";

export type BankAccount = components["schemas"]["BankAccount"];
export type BankRail = components["schemas"]["BankRail"];
export type BankTransferStatus = components["schemas"]["BankTransferStatus"];
export type BankTransferFailure = components["schemas"]["BankTransferFailureReason"];

export interface BankCallContext {
  /** The connection's config (validated by the adapter's `parseConfig`). */
  config: Record<string, unknown>;
  now: Date;
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

export interface BankTransferApi {
  /** Whether the provider serves this route; throws ProviderExecutionError when it cannot answer. */
  checkRoute(
    ctx: BankCallContext,
    route: { rail: BankRail; currency: string; sourceCountry: string; destinationCountry: string; reference: string | null },
  ): Promise<{ available: boolean; reason: string | null }>;
  create(ctx: BankCallContext, order: BankTransferOrder): Promise<{ providerTransferId: string }>;
  get(ctx: BankCallContext, known: KnownBankTransfer): Promise<ProviderBankTransferState>;
  /** Cancels a pending or processing transfer; throws ProviderExecutionError when the provider refuses. */
  cancel(ctx: BankCallContext, known: KnownBankTransfer): Promise<void>;
}
