import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { evaluateCompliance } from "./evaluate-compliance.ts";
import type { ComplianceResult, ComplianceSubject } from "./types.ts";

/** The gate in front of provider execution: screening then policy, both decisions recorded in the unit of work (and
 * kept when this refuses), then 403 COMPLIANCE_BLOCKED with `reasons` when anything blocked. Call it before any
 * provider call. */
export async function enforceCompliance(options: {
  uow: UnitOfWork;
  auth: AuthContext;
  subject: ComplianceSubject;
  requestId?: string;
}): Promise<ComplianceResult> {
  const result = await evaluateCompliance(options);
  if (result.decision === "block") {
    throw new ServiceError("COMPLIANCE_BLOCKED", `Blocked by compliance: ${result.reasons.map((r) => r.message).join("; ")}`, {
      extensions: { reasons: result.reasons },
    });
  }
  return result;
}
