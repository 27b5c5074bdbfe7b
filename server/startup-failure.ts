// A start that cannot go on (bad configuration, database missing or unreachable, port taken, PGlite folder in use)
// ends with one line on stderr naming what to fix, and exit code 1 — no stack trace: the operator needs the cause,
// not our call stack. Anything unrecognised still prints its message on one line.

/** What the operator reads for a failure during start. */
export function describeStartupFailure(error: unknown, context: { port?: number; database?: string } = {}): string {
  // Node reports a refused connection to a name with several addresses (localhost: ::1 and 127.0.0.1) as an
  // AggregateError with an empty message; its first error names the address.
  const first = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const err = first as { code?: string; message?: string; syscall?: string; address?: string; port?: number } | undefined;
  const code = err?.code;
  const message = oneLine(err?.message ?? String(error));
  const database = context.database ?? "the database";
  if (code === "EADDRINUSE")
    return `port ${err?.port ?? context.port} is already in use: stop what listens there or set PORT to another port`;
  if (code === "EACCES" && err?.syscall === "listen")
    return `not allowed to listen on port ${err?.port ?? context.port}: choose a port above 1023 (PORT)`;
  // PostgreSQL SQLSTATEs: 3D000 invalid_catalog_name, 28P01/28000 authentication failures.
  if (code === "3D000") return `${database}: ${message} (create it first, e.g. createdb, or fix DATABASE_URL)`;
  if (code === "28P01" || code === "28000") return `${database}: ${message} (check the user and password in DATABASE_URL)`;
  if (code === "ECONNREFUSED")
    return `${database}: nothing accepts connections at ${err?.address ?? "the host"}:${err?.port ?? "?"} (is PostgreSQL running? check DATABASE_URL)`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `${database}: the host in DATABASE_URL cannot be resolved (${message})`;
  if (code === "ETIMEDOUT" || /timeout/i.test(message))
    return `${database}: no answer in time (${message}); check DATABASE_URL and the network`;
  if (/connection terminated/i.test(message))
    return `${database}: no usable connection (${message}); check that the host is reachable and DATABASE_URL`;
  return context.database ? `${database}: ${message}` : message;
}

function oneLine(text: string): string {
  return text.split("\n")[0]?.trim() || "unknown error";
}

/** Prints the failure as one line and exits 1. */
export function exitOnStartupFailure(error: unknown, context: { port?: number; database?: string } = {}): never {
  process.stderr.write(`coinplane: cannot start: ${describeStartupFailure(error, context)}\n`);
  process.exit(1);
}
