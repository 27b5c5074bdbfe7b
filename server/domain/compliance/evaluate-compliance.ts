import { SANDBOX_SCREENING_LIST } from "../../lib/compliance/sandbox-screening-list.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { organizationSettings } from "../organizations/organization-settings.ts";
import { checkPolicy } from "./check-policy.ts";
import { matchSanctions } from "./match-sanctions.ts";
import { type PolicySettings, readPolicySettings } from "./policy-settings.ts";
import { recordComplianceDecision } from "./record-compliance-decision.ts";
import { requireScreeningSource } from "./require-screening-source.ts";
import type { ComplianceResult, ComplianceRunOptions } from "./types.ts";

export interface ComplianceEvaluation extends ComplianceResult {
  /** The organization's effective policy that was applied. */
  policy: PolicySettings;
  /** The subject's amount in USD-equivalent, or null. */
  amountUsd: string | null;
  evaluatedAt: Date;
}

/** Screening, then policy, in the request's unit of work: both decisions are recorded (allow or block) with one
 * `compliance.screened` activity event, kept even when the request then fails with a business error. Never throws on
 * a block (enforceCompliance does). */
export async function evaluateCompliance(options: ComplianceRunOptions): Promise<ComplianceEvaluation> {
  await requireScreeningSource(options.uow.tx, options.auth);
  return evaluateLocally(options);
}

/** evaluateCompliance against the sandbox list without first asking for a screening source (which fails closed in
 * production): the corridor's rehearsal fallback (screen-corridor.ts) screens and records exactly this way. */
export async function evaluateLocally(options: ComplianceRunOptions): Promise<ComplianceEvaluation> {
  const { uow, auth, subject, requestId } = options;
  const screeningReasons = matchSanctions(subject, SANDBOX_SCREENING_LIST);
  const policy = readPolicySettings(await organizationSettings(uow.tx, auth.organizationId));
  const { reasons: policyReasons, amountUsd } = checkPolicy(subject, policy);
  const screening = recordComplianceDecision(uow, { auth, kind: "screening", reasons: screeningReasons, subject, requestId });
  const policyDecision = recordComplianceDecision(uow, { auth, kind: "policy", reasons: policyReasons, subject, requestId });
  recordActivity(
    uow,
    { organizationId: auth.organizationId, environment: auth.environment, type: "compliance.screened", resourceId: screening.id },
    { keepOnError: true },
  );
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
