// What a provider operation asks to screen before it executes (`ProviderOperationDef.screen`): the compliance module
// screens and evaluates it (domain/compliance re-exports it as its contract's subject).

export interface ComplianceSubject {
  /** operationId asking, e.g. "createBankTransfer", "invokeProvider", or "screen"/"evaluatePolicy". */
  operation: string;
  parties?: Array<{ role: string; name?: string; country?: string; dateOfBirth?: string }>;
  addresses?: Array<{ role: string; chain?: string; address: string }>;
  jurisdictions?: { jurisdiction?: string[]; operatorJurisdiction?: string; senderJurisdiction?: string; receiverJurisdiction?: string };
  /** Decimal string, ISO 4217 or USDC/USDT/DAI. */
  amount?: { value: string; currency: string };
}
