import type { AuthContext } from "../../context.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import type { ComplianceDecisionValue, ComplianceReason, ComplianceSubject } from "./types.ts";

export interface RecordedDecision {
  id: string;
  decision: ComplianceDecisionValue;
  createdAt: Date;
}

/** Appends one ComplianceDecision row (allow or block) inside the caller's transaction. */
export async function recordComplianceDecision(
  tx: Tx,
  input: { auth: AuthContext; kind: "screening" | "policy"; reasons: ComplianceReason[]; subject: ComplianceSubject; requestId?: string },
): Promise<RecordedDecision> {
  const { operation, ...evaluated } = input.subject;
  const decision: ComplianceDecisionValue = input.reasons.length > 0 ? "block" : "allow";
  const row = await tx.complianceDecision.create({
    data: {
      id: newId("cdec"),
      organizationId: input.auth.organizationId,
      environment: input.auth.environment,
      kind: input.kind,
      decision,
      reasons: input.reasons as unknown as Prisma.InputJsonValue,
      subject: evaluated as Prisma.InputJsonValue,
      operation,
      requestId: input.requestId ?? null,
    },
  });
  return { id: row.id, decision, createdAt: row.createdAt };
}
