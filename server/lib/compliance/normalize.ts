// Pure normalisation used by screening and policy matching.

/** Addresses compare case-insensitively and exactly (surrounding whitespace ignored). */
export function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** Names compare after removing accents (NFKD, combining marks dropped), lower-casing and collapsing whitespace. */
export function normalizeName(name: string): string {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** A listed jurisdiction matches the same code and its subdivisions: `IR` matches `IR` and `IR-07`; `UA-43` matches
 * only `UA-43` (and deeper codes under it), not `UA`. Case-insensitive. */
export function jurisdictionMatches(code: string, listed: string): boolean {
  const c = code.trim().toUpperCase();
  const l = listed.trim().toUpperCase();
  return c === l || c.startsWith(`${l}-`);
}
