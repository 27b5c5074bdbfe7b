// Every jurisdiction a subject touches, with the field it came from, for the jurisdiction rules of both stages.
import type { ComplianceSubject } from "./types.ts";

export interface TouchedJurisdiction {
  /** Where the code came from, as shown in reasons: `jurisdiction[0]`, `senderJurisdiction`, `party sender country`. */
  field: string;
  code: string;
}

export function subjectJurisdictions(subject: ComplianceSubject): TouchedJurisdiction[] {
  const out: TouchedJurisdiction[] = [];
  const j = subject.jurisdictions ?? {};
  (j.jurisdiction ?? []).forEach((code, i) => {
    out.push({ field: `jurisdiction[${i}]`, code });
  });
  for (const field of ["operatorJurisdiction", "senderJurisdiction", "receiverJurisdiction"] as const) {
    const code = j[field];
    if (code) out.push({ field, code });
  }
  for (const party of subject.parties ?? []) {
    if (party.country) out.push({ field: `${party.role} country`, code: party.country });
  }
  return out;
}
