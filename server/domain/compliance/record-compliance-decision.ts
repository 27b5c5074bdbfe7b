import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { newId } from "../../lib/ids.ts";
import type { ComplianceDecisionValue, ComplianceReason, ComplianceSubject } from "./types.ts";

export interface RecordedDecision {
  id: string;
  decision: ComplianceDecisionValue;
  createdAt: Date;
}

/** Appends one ComplianceDecision row (allow or block) to the unit of work. It is kept when the request then fails
 * with a business error (a block stays on record although the caller's request is refused). */
export function recordComplianceDecision(
  uow: UnitOfWork,
  input: { auth: AuthContext; kind: "screening" | "policy"; reasons: ComplianceReason[]; subject: ComplianceSubject; requestId?: string },
): RecordedDecision {
  const { operation, ...evaluated } = input.subject;
  const decision: ComplianceDecisionValue = input.reasons.length > 0 ? "block" : "allow";
  const id = newId("cdec");
  uow.insertLater(
    "ComplianceDecision",
    {
      id,
      organizationId: input.auth.organizationId,
      environment: input.auth.environment,
      kind: input.kind,
      decision,
      reasons: JSON.stringify(input.reasons),
      subject: JSON.stringify(evaluated),
      operation,
      requestId: input.requestId ?? null,
      createdAt: uow.now,
    },
    { keepOnError: true },
  );
  return { id, decision, createdAt: uow.now };
}
