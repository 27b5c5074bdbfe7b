import { SANDBOX_SCREENING_LIST } from "../../lib/compliance/sandbox-screening-list.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { matchSanctions } from "./match-sanctions.ts";
import { type RecordedDecision, recordComplianceDecision } from "./record-compliance-decision.ts";
import { requireScreeningSource } from "./require-screening-source.ts";
import type { ComplianceReason, ComplianceRunOptions } from "./types.ts";

export interface ScreeningOutcome extends RecordedDecision {
  reasons: ComplianceReason[];
}

/** Screening stage only (sanctions lists), recorded as one `screening` decision plus a `compliance.screened` event,
 * in the request's unit of work (kept when the request then fails with a business error, as evaluateCompliance's
 * decisions are). Never throws on a block. */
export async function screenSubject(options: ComplianceRunOptions): Promise<ScreeningOutcome> {
  const { uow, auth, subject, requestId } = options;
  await requireScreeningSource(uow.tx, auth);
  const reasons = matchSanctions(subject, SANDBOX_SCREENING_LIST);
  const recorded = recordComplianceDecision(uow, { auth, kind: "screening", reasons, subject, requestId });
  recordActivity(
    uow,
    { organizationId: auth.organizationId, environment: auth.environment, type: "compliance.screened", resourceId: recorded.id },
    { keepOnError: true },
  );
  return { ...recorded, reasons };
}
