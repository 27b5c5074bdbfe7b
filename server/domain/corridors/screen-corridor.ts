// The corridor's screening step, run synchronously by corridor/simulate: the person, both account holders, the
// destination address, every jurisdiction (including the person's country and nationality) and the amount.
// Sandbox keys (and organizations with a compliance_screening connection) go through enforceCompliance. A production
// key without one uses the local fallback — the same sandbox list and the organization's policy, recorded the same
// way — because a rehearsal never fails closed.
import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { assertAllowed, enforceCompliance } from "../compliance/enforce-compliance.ts";
import { evaluateLocally } from "../compliance/evaluate-compliance.ts";
import type { ComplianceSubject } from "../compliance/types.ts";
import { newestReviewedConnection } from "../providers/resolve-provider.ts";
import { LOCAL_FALLBACK } from "./step-providers.ts";

type SimulateRequest = components["schemas"]["SimulateCorridorRequest"];

export interface CorridorScreening {
  provider: string;
  startedAt: Date;
  finishedAt: Date;
  output: { result: "clear"; checks: string[]; screeningDecisionId: string; policyDecisionId: string };
}

export function corridorSubject(request: SimulateRequest, destinationAddress: string): ComplianceSubject {
  const { person } = request;
  const jurisdictions = [...(request.jurisdiction ?? []), person.country, ...(person.nationality ? [person.nationality] : [])];
  return {
    operation: "simulateCorridor",
    parties: [
      { role: "person", name: `${person.firstName} ${person.lastName}`, country: person.country, dateOfBirth: person.dateOfBirth },
      { role: "source account holder", name: request.source.accountHolderName, country: request.source.country },
      {
        role: "destination account holder",
        name: request.destination.account.accountHolderName,
        country: request.destination.account.country,
      },
    ],
    addresses: [{ role: "destination", chain: request.custody.chain, address: destinationAddress }],
    jurisdictions: {
      jurisdiction: [...new Set(jurisdictions)],
      senderJurisdiction: request.senderJurisdiction,
      receiverJurisdiction: request.receiverJurisdiction,
    },
    amount: { value: request.amount, currency: request.currency },
  };
}

const CHECKS = ["sanctions", "jurisdiction", "policy"];

export async function screenCorridor(options: {
  uow: UnitOfWork;
  auth: AuthContext;
  subject: ComplianceSubject;
  requestId: string;
}): Promise<CorridorScreening> {
  const { uow, auth, subject, requestId } = options;
  const startedAt = new Date();
  const connection = await newestReviewedConnection(uow.tx, auth, "compliance_screening");
  if (connection || auth.environment === "sandbox") {
    const result = await enforceCompliance({ uow, auth, subject, requestId });
    return {
      provider: connection?.providerSlug ?? LOCAL_FALLBACK,
      startedAt,
      finishedAt: new Date(),
      output: {
        result: "clear",
        checks: CHECKS,
        screeningDecisionId: result.screeningDecisionId,
        policyDecisionId: result.policyDecisionId,
      },
    };
  }
  // The local fallback: recorded like enforceCompliance records (kept when the block then refuses the request).
  const local = assertAllowed(await evaluateLocally({ uow, auth, subject, requestId }));
  return {
    provider: LOCAL_FALLBACK,
    startedAt,
    finishedAt: new Date(),
    output: { result: "clear", checks: CHECKS, screeningDecisionId: local.screeningDecisionId, policyDecisionId: local.policyDecisionId },
  };
}
