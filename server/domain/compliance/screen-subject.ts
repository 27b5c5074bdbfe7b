import type { AuthContext } from "../../context.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { matchSanctions } from "./match-sanctions.ts";
import { type RecordedDecision, recordComplianceDecision } from "./record-compliance-decision.ts";
import { requireScreeningSource } from "./require-screening-source.ts";
import { SANDBOX_SCREENING_LIST } from "./sandbox-list.ts";
import type { ComplianceReason, ComplianceSubject } from "./types.ts";

export interface ScreeningOutcome extends RecordedDecision {
  reasons: ComplianceReason[];
}

/** Screening stage only (sanctions lists), recorded as one `screening` decision plus a `compliance.screened` event,
 * inside the caller's transaction. Never throws on a block. */
export async function screenSubject(options: {
  tx: Tx;
  auth: AuthContext;
  subject: ComplianceSubject;
  requestId?: string;
}): Promise<ScreeningOutcome> {
  const { tx, auth, subject, requestId } = options;
  await requireScreeningSource(tx, auth);
  const reasons = matchSanctions(subject, SANDBOX_SCREENING_LIST);
  const recorded = await recordComplianceDecision(tx, { auth, kind: "screening", reasons, subject, requestId });
  await recordActivity(tx, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "compliance.screened",
    resourceId: recorded.id,
  });
  return { ...recorded, reasons };
}
