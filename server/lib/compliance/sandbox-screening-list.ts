// The sandbox screening list (sandbox-sanctions.json), indexed for matching.

import { normalizeAddress, normalizeName } from "./normalize.ts";
import list from "./sandbox-sanctions.json" with { type: "json" };

export interface ScreeningList {
  /** normalised address → listed address */
  addresses: ReadonlyMap<string, { address: string; chain: string }>;
  /** normalised name → listed name */
  names: ReadonlyMap<string, string>;
  jurisdictions: ReadonlyArray<{ code: string; name: string }>;
}

export const SANDBOX_SCREENING_LIST: ScreeningList = {
  addresses: new Map(list.addresses.map((a) => [normalizeAddress(a.address), { address: a.address, chain: a.chain }])),
  names: new Map(list.names.map((n) => [normalizeName(n), n])),
  jurisdictions: list.jurisdictions,
};

/** `<category>:<providerSlug>` of the list that screened, as reported in responses. */
export const SANDBOX_SCREENING_SOURCE = "compliance_screening:sandbox";
