// The compliance module's contract. Other domains call enforceCompliance / evaluateCompliance with a ComplianceSubject
// before the provider execution path continues (service description, rule 4).

import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { ComplianceSubject } from "../../providers/capabilities/compliance-subject.ts";

/** The subject screened and evaluated; declared with the provider capabilities, whose operations name what to screen. */
export type { ComplianceSubject };

export interface ComplianceReason {
  stage: "screening" | "policy";
  /** e.g. `sanctions.address`, `sanctions.name`, `sanctions.jurisdiction`, `policy.jurisdiction_blocked`,
   * `policy.amount_limit`, `policy.currency_unsupported`, `policy.amount_invalid`. */
  rule: string;
  message: string;
}

export type ComplianceDecisionValue = "allow" | "block";

/** What a compliance run takes: the request's unit of work (the decisions are recorded in it), the caller, the subject. */
export interface ComplianceRunOptions {
  uow: UnitOfWork;
  auth: AuthContext;
  subject: ComplianceSubject;
  requestId?: string;
}

export interface ComplianceResult {
  decision: ComplianceDecisionValue;
  reasons: ComplianceReason[];
  screeningDecisionId: string;
  policyDecisionId: string;
}
