// The one classifier of infrastructure failures (database, Redis, providers), used by the unit of work
// (server/db/unit-of-work/run-unit.ts) and by toServiceError (server/errors/to-service-error.ts):
//   - "unavailable": the dependency cannot be reached or did not answer in time (connection refused / reset / timed out,
//     pool acquire timeout, statement or query timeout, server shutting down, Redis or a provider timing out) → 503 with
//     Retry-After; never stored as an idempotent answer, the key is released.
//   - "conflict": serialization failure (40001), deadlock (40P01), lock timeout (55P03) → the unit of work retries the
//     whole transaction a bounded number of times, then answers 503.
//   - "unique": a unique violation (23505) that no domain mapped to its own code → 409.
//   - "unknown": anything else (a bug) → 500.
// isDatabaseFailure (any statement the database refused, or an unreachable database) is the payments writes' 503
// STORAGE_UNAVAILABLE rule: the one database-error check outside the kinds above, kept here so no route has its own.

export type FailureKind = "unavailable" | "conflict" | "unique" | "unknown";

const UNAVAILABLE_NODE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
]);
// PostgreSQL SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator intervention:
// admin shutdown, crash shutdown, cannot connect now), plus 57014 (statement timeout / query canceled).
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)|^57014$/;
const CONFLICT_SQLSTATE = new Set(["40001", "40P01", "55P03", "P2034"]);
// Prisma's own codes for an unreachable server / a closed connection, and the driver adapter's error kinds for the same
// (a pooled connection found dead surfaces as P1017 with meta.driverAdapterError.cause.kind "ConnectionClosed").
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  "ConnectionClosed",
  "DatabaseNotReachable",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
]);
// Error class names of timeouts and lost connections: the I/O timeout of Redis calls (IoTimeoutError), the rate
// limiter's store error, ioredis' retries exhausted, fetch/undici and viem timeouts.
const UNAVAILABLE_NAMES = new Set([
  "IoTimeoutError",
  "RateLimitStoreError",
  "MaxRetriesPerRequestError",
  "TimeoutError",
  "HttpRequestError",
  "ConnectTimeoutError",
]);
const UNAVAILABLE_MESSAGES =
  /(Connection terminated|connection is closed|Client has encountered a connection error|PGlite is closed|database system is shutting down|the database system is starting up|terminating connection|Can't reach database|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout|Connection is closed|ECONNREFUSED|ECONNRESET)/i;

function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    yield current as Record<string, unknown>;
    const next = (current as { cause?: unknown }).cause;
    current = next === current ? undefined : next;
  }
}

function sqlstates(e: Record<string, unknown>): string[] {
  const codes: string[] = [];
  for (const key of ["code", "originalCode"]) if (typeof e[key] === "string") codes.push(e[key] as string);
  return codes;
}

function isUnavailableLink(e: Record<string, unknown>): boolean {
  for (const code of sqlstates(e)) {
    if (UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_PRISMA_CODES.has(code)) return true;
  }
  if (typeof e.kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
  const adapterKind = (e.meta as { driverAdapterError?: { cause?: { kind?: unknown } } } | undefined)?.driverAdapterError?.cause?.kind;
  if (typeof adapterKind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(adapterKind)) return true;
  if (typeof e.name === "string" && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (e.constructor && UNAVAILABLE_NAMES.has((e.constructor as { name?: string }).name ?? "")) return true;
  return typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message);
}

function isConflictLink(e: Record<string, unknown>): boolean {
  return sqlstates(e).some((code) => CONFLICT_SQLSTATE.has(code)) || e.kind === "TransactionWriteConflict";
}

function isUniqueLink(e: Record<string, unknown>): boolean {
  return e.code === "P2002" || e.code === "23505" || e.originalCode === "23505" || e.kind === "UniqueConstraintViolation";
}

/** What kind of failure `error` is, looking through its `cause` chain. */
export function classifyFailure(error: unknown): FailureKind {
  const chain = [...causes(error)];
  // A conflict or unique violation is the database answering: decide those before the generic "unavailable" messages.
  if (chain.some(isConflictLink)) return "conflict";
  if (chain.some(isUnavailableLink)) return "unavailable";
  if (chain.some(isUniqueLink)) return "unique";
  return "unknown";
}

/** The database, Redis or a provider could not be reached or did not answer in time. */
export function isInfrastructureUnavailable(error: unknown): boolean {
  return classifyFailure(error) === "unavailable";
}

/** A database that cannot be reached (kept under its old name; same rule as isInfrastructureUnavailable). */
export const isDatabaseUnavailable = isInfrastructureUnavailable;

/** Serialization failure, deadlock or lock timeout: a fresh attempt of the same transaction may succeed. */
export function isRetryableConflict(error: unknown): boolean {
  return classifyFailure(error) === "conflict";
}

/** A statement the database refused (the driver's error carries a SQLSTATE and a severity), or a database that could not
 * be reached: what a payments write answers as 503 STORAGE_UNAVAILABLE (server/routes/respond-or-503.ts). */
export function isDatabaseFailure(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  return [...causes(error)]
    .slice(0, 6)
    .some((e) => typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === "string");
}

/** Prisma's P2002 / SQLSTATE 23505: a unique constraint was violated. */
export function isUniqueViolation(error: unknown): boolean {
  return [...causes(error)].some(isUniqueLink);
}

/** Retry-After (seconds) for a 503 from an unavailable dependency, and for a conflict that outlived its retries. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;
