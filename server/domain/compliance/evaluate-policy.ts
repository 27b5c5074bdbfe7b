import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { SANDBOX_SCREENING_SOURCE } from "../../lib/compliance/sandbox-screening-list.ts";
import { evaluateCompliance } from "./evaluate-compliance.ts";
import { type ComplianceCheckOptions, subjectFromRequest } from "./subject-from-request.ts";

type PolicyEvaluation = components["schemas"]["PolicyEvaluation"];

/** POST /policy/evaluate: screening then policy, both recorded in the request's unit of work. */
export async function evaluatePolicy(uow: UnitOfWork, options: ComplianceCheckOptions): Promise<PolicyEvaluation> {
  const subject = subjectFromRequest(options.body, "evaluatePolicy", { countAmount: true });
  const result = await evaluateCompliance({ uow, auth: options.auth, subject, requestId: options.requestId });
  return {
    decision: result.decision,
    reasons: result.reasons,
    screeningDecisionId: result.screeningDecisionId,
    policyDecisionId: result.policyDecisionId,
    policy: result.policy,
    amountUsd: result.amountUsd,
    source: SANDBOX_SCREENING_SOURCE,
    simulated: true,
    evaluatedAt: result.evaluatedAt.toISOString(),
  };
}
