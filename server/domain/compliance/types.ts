// The compliance module's contract. Other domains call enforceCompliance / evaluateCompliance with a ComplianceSubject
// before the provider execution path continues (service description, rule 4).

export interface ComplianceSubject {
  /** operationId asking, e.g. "createBankTransfer", "invokeProvider", or "screen"/"evaluatePolicy". */
  operation: string;
  parties?: Array<{ role: string; name?: string; country?: string; dateOfBirth?: string }>;
  addresses?: Array<{ role: string; chain?: string; address: string }>;
  jurisdictions?: { jurisdiction?: string[]; operatorJurisdiction?: string; senderJurisdiction?: string; receiverJurisdiction?: string };
  /** Decimal string, ISO 4217 or USDC/USDT/DAI. */
  amount?: { value: string; currency: string };
}

export interface ComplianceReason {
  stage: "screening" | "policy";
  /** e.g. `sanctions.address`, `sanctions.name`, `sanctions.jurisdiction`, `policy.jurisdiction_blocked`,
   * `policy.amount_limit`, `policy.currency_unsupported`, `policy.amount_invalid`. */
  rule: string;
  message: string;
}

export type ComplianceDecisionValue = "allow" | "block";

export interface ComplianceResult {
  decision: ComplianceDecisionValue;
  reasons: ComplianceReason[];
  screeningDecisionId: string;
  policyDecisionId: string;
}
