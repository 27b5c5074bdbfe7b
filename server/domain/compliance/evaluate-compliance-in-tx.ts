import type { AuthContext } from "../../context.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { checkPolicy } from "./check-policy.ts";
import { matchSanctions } from "./match-sanctions.ts";
import { type PolicySettings, readPolicySettings } from "./policy-settings.ts";
import { recordComplianceDecision } from "./record-compliance-decision.ts";
import { requireScreeningSource } from "./require-screening-source.ts";
import { SANDBOX_SCREENING_LIST } from "./sandbox-list.ts";
import type { ComplianceResult, ComplianceSubject } from "./types.ts";

export interface ComplianceEvaluation extends ComplianceResult {
  /** The organization's effective policy that was applied. */
  policy: PolicySettings;
  /** The subject's amount in USD-equivalent, or null. */
  amountUsd: string | null;
  evaluatedAt: Date;
}

/** Screening, then policy, in the caller's transaction: both decisions are recorded (allow or block) with one
 * `compliance.screened` activity event. Never throws on a block. Use it when the result must commit together with the
 * caller's write (e.g. an idempotent response); otherwise call evaluateCompliance / enforceCompliance. */
export async function evaluateComplianceInTx(options: {
  tx: Tx;
  auth: AuthContext;
  subject: ComplianceSubject;
  requestId?: string;
}): Promise<ComplianceEvaluation> {
  const { tx, auth, subject, requestId } = options;
  await requireScreeningSource(tx, auth);
  const screeningReasons = matchSanctions(subject, SANDBOX_SCREENING_LIST);
  const organization = await tx.organization.findUnique({ where: { id: auth.organizationId }, select: { settings: true } });
  const policy = readPolicySettings(organization?.settings);
  const { reasons: policyReasons, amountUsd } = checkPolicy(subject, policy);
  const screening = await recordComplianceDecision(tx, { auth, kind: "screening", reasons: screeningReasons, subject, requestId });
  const policyDecision = await recordComplianceDecision(tx, { auth, kind: "policy", reasons: policyReasons, subject, requestId });
  await recordActivity(tx, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "compliance.screened",
    resourceId: screening.id,
  });
  const reasons = [...screeningReasons, ...policyReasons];
  return {
    decision: reasons.length > 0 ? "block" : "allow",
    reasons,
    screeningDecisionId: screening.id,
    policyDecisionId: policyDecision.id,
    policy,
    amountUsd,
    evaluatedAt: policyDecision.createdAt,
  };
}
