import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { SANDBOX_SCREENING_SOURCE } from "../../lib/compliance/sandbox-screening-list.ts";
import { screenSubject } from "./screen-subject.ts";
import { type ComplianceCheckOptions, subjectFromRequest } from "./subject-from-request.ts";

type ScreeningResult = components["schemas"]["ScreeningResult"];

/** POST /compliance/screen: the screening stage alone, recorded in the request's unit of work. */
export async function screenCompliance(uow: UnitOfWork, options: ComplianceCheckOptions): Promise<ScreeningResult> {
  const subject = subjectFromRequest(options.body, "screen", { countAmount: false });
  const outcome = await screenSubject({ uow, auth: options.auth, subject, requestId: options.requestId });
  return {
    decisionId: outcome.id,
    decision: outcome.decision,
    reasons: outcome.reasons,
    source: SANDBOX_SCREENING_SOURCE,
    simulated: true,
    screenedAt: outcome.createdAt.toISOString(),
  };
}
