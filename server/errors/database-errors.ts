// Tells a database that cannot be reached from a request the database refused.

const UNAVAILABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"]);
// PostgreSQL SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator intervention).
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/;
// Prisma's own codes for an unreachable server / a closed connection, and the driver adapter's error kinds for the same
// (a pooled connection found dead surfaces as P1017 with meta.driverAdapterError.cause.kind "ConnectionClosed").
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1017"]);
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  "ConnectionClosed",
  "DatabaseNotReachable",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
]);
const UNAVAILABLE_MESSAGES =
  /(Connection terminated|connection is closed|Client has encountered a connection error|PGlite is closed|database system is shutting down|terminating connection|Can't reach database|timeout exceeded when trying to connect)/i;

function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 6; depth++) {
    yield current as Record<string, unknown>;
    const next = (current as { cause?: unknown }).cause;
    current = next === current ? undefined : next;
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = typeof e.code === "string" ? e.code : undefined;
    if (code && (UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_PRISMA_CODES.has(code))) return true;
    const adapterKind = (e.meta as { driverAdapterError?: { cause?: { kind?: unknown } } } | undefined)?.driverAdapterError?.cause?.kind;
    if (typeof e.kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
    if (typeof adapterKind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(adapterKind)) return true;
    const original = (e.originalCode ?? (e.cause as Record<string, unknown> | undefined)?.originalCode) as string | undefined;
    if (original && UNAVAILABLE_SQLSTATE.test(original)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** Prisma's P2002 / SQLSTATE 23505: a unique constraint was violated. */
export function isUniqueViolation(error: unknown): boolean {
  for (const e of causes(error)) {
    if (e.code === "P2002" || e.code === "23505" || e.originalCode === "23505") return true;
    const kind = (e as { kind?: unknown }).kind;
    if (kind === "UniqueConstraintViolation") return true;
  }
  return false;
}
