// Turns a compliance/screen or policy/evaluate body into a ComplianceSubject, refusing a body with nothing to check.
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ComplianceRunOptions, ComplianceSubject } from "./types.ts";

type ComplianceCheckRequest = components["schemas"]["ComplianceCheckRequest"];

/** What the two compliance endpoints (compliance/screen, policy/evaluate) take after their unit of work: the run's
 * options but the subject, which comes from the body (their ComplianceCheckRequest). */
export type ComplianceCheckOptions = Omit<ComplianceRunOptions, "subject" | "uow"> & { body: ComplianceCheckRequest };

/** `countAmount`: whether an amount alone is something to check (policy evaluation) or not (screening). */
export function subjectFromRequest(body: ComplianceCheckRequest, operation: string, options: { countAmount: boolean }): ComplianceSubject {
  const partyWithout = (body.parties ?? []).findIndex((p) => p.name === undefined && p.country === undefined);
  if (partyWithout >= 0) {
    throw new ServiceError("VALIDATION_ERROR", "A party needs a name or a country", {
      errors: [{ path: `/body/parties/${partyWithout}`, message: "must have a name or a country" }],
    });
  }
  const jurisdictions = {
    ...(body.jurisdiction?.length ? { jurisdiction: body.jurisdiction } : {}),
    ...(body.operatorJurisdiction ? { operatorJurisdiction: body.operatorJurisdiction } : {}),
    ...(body.senderJurisdiction ? { senderJurisdiction: body.senderJurisdiction } : {}),
    ...(body.receiverJurisdiction ? { receiverJurisdiction: body.receiverJurisdiction } : {}),
  };
  const subject: ComplianceSubject = {
    operation,
    ...(body.parties ? { parties: body.parties } : {}),
    ...(body.addresses ? { addresses: body.addresses } : {}),
    ...(Object.keys(jurisdictions).length > 0 ? { jurisdictions } : {}),
    ...(body.amount !== undefined && body.currency !== undefined ? { amount: { value: body.amount, currency: body.currency } } : {}),
  };
  const something = subject.parties || subject.addresses || subject.jurisdictions || (options.countAmount && subject.amount);
  if (!something) {
    const fields = options.countAmount
      ? "parties, addresses, a jurisdiction field or amount"
      : "parties, addresses or a jurisdiction field";
    throw new ServiceError("VALIDATION_ERROR", `Nothing to check: send at least one of ${fields}`, {
      errors: [{ path: "/body", message: `must contain at least one of ${fields}` }],
    });
  }
  return subject;
}
