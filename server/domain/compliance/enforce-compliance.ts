import { ServiceError } from "../../errors/service-error.ts";
import { evaluateCompliance } from "./evaluate-compliance.ts";
import type { ComplianceResult, ComplianceRunOptions } from "./types.ts";

/** The gate in front of provider execution: screening then policy, both decisions recorded in the unit of work (and
 * kept when this refuses), then 403 COMPLIANCE_BLOCKED with `reasons` when anything blocked. Call it before any
 * provider call. */
export async function enforceCompliance(options: ComplianceRunOptions): Promise<ComplianceResult> {
  return assertAllowed(await evaluateCompliance(options));
}

/** 403 COMPLIANCE_BLOCKED with `reasons` when anything blocked; otherwise the result. */
export function assertAllowed<R extends ComplianceResult>(result: R): R {
  if (result.decision === "block") {
    throw new ServiceError("COMPLIANCE_BLOCKED", `Blocked by compliance: ${result.reasons.map((r) => r.message).join("; ")}`, {
      extensions: { reasons: result.reasons },
    });
  }
  return result;
}
