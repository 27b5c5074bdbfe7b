// Screening stage (pure): the subject's addresses, party names and jurisdictions against a screening list.

import { jurisdictionMatches, normalizeAddress, normalizeName } from "../../lib/compliance/normalize.ts";
import type { ScreeningList } from "../../lib/compliance/sandbox-screening-list.ts";
import { dedupeReasons } from "./dedupe-reasons.ts";
import { subjectJurisdictions } from "./subject-jurisdictions.ts";
import type { ComplianceReason, ComplianceSubject } from "./types.ts";

const reason = (rule: string, message: string): ComplianceReason => ({ stage: "screening", rule, message });

/** Returns one reason per hit (duplicates removed); an empty array means the subject is clear. */
export function matchSanctions(subject: ComplianceSubject, list: ScreeningList): ComplianceReason[] {
  const reasons: ComplianceReason[] = [];
  for (const a of subject.addresses ?? []) {
    if (list.addresses.has(normalizeAddress(a.address))) {
      reasons.push(reason("sanctions.address", `${a.role} address ${a.address} is on the sandbox sanctions list`));
    }
  }
  for (const p of subject.parties ?? []) {
    if (p.name && list.names.has(normalizeName(p.name))) {
      reasons.push(reason("sanctions.name", `${p.role} name "${p.name}" matches a name on the sandbox sanctions list`));
    }
  }
  for (const { field, code } of subjectJurisdictions(subject)) {
    const hit = list.jurisdictions.find((j) => jurisdictionMatches(code, j.code));
    if (hit) reasons.push(reason("sanctions.jurisdiction", `${field} ${code} is in sanctioned jurisdiction ${hit.code} (${hit.name})`));
  }
  return dedupeReasons(reasons);
}
