// A database conflict that a fresh attempt of the same transaction may not hit: serialization failure (40001),
// deadlock (40P01), lock timeout (55P03), or Prisma's own name for them (P2034).
const TRANSIENT = new Set(["40001", "40P01", "55P03", "P2034"]);

export function isTransientConflict(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 6; depth++) {
    const e = current as Record<string, unknown>;
    for (const key of ["code", "originalCode"]) {
      if (typeof e[key] === "string" && TRANSIENT.has(e[key] as string)) return true;
    }
    const kind = e.kind;
    if (kind === "TransactionWriteConflict") return true;
    const next = e.cause;
    current = next === current ? undefined : next;
  }
  return false;
}
