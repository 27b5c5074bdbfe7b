// The mock's own request headers, read after authentication (documented in docs/getting-started.md):
//   X-Mock-Error: <CODE>     the operation's documented error example with that code (e.g. PROVIDER_NOT_CONNECTED)
//   X-Mock-Status: <status>  the operation's first documented error example of that status (with X-Mock-Error: that
//                            status's example with that code)
//   X-Mock-Example: <name>   a named success example (checked here, answered by the engine)
// A value the operation does not document answers 400 in the surface's validation shape, naming the header and listing
// the valid values.
import { documentedError, documentedResult, errorResult } from "./responses.ts";
import type { MockData, MockOperationSpec, MockResult } from "./types.ts";

export function forcedAnswer(
  data: MockData,
  op: MockOperationSpec,
  get: (name: string) => string | undefined,
  path: string,
  requestId: string,
): MockResult | null {
  const invalid = (name: string, message: string) =>
    errorResult(
      path,
      { code: "VALIDATION_ERROR", message: `/headers/${name} ${message}`, errors: [{ path: `/headers/${name}`, message }] },
      requestId,
      op,
    );
  const exampleName = get("x-mock-example");
  if (exampleName !== undefined) {
    const names = op.responses.filter((r) => r.status < 300).flatMap((r) => r.examples.map((e) => e.name));
    if (!names.includes(exampleName)) {
      const valid = names.length ? names.join(", ") : "none (this operation has no named success example)";
      return invalid("x-mock-example", `must name a success example of ${op.operationId}: ${valid}`);
    }
  }
  const code = get("x-mock-error");
  const statusText = get("x-mock-status");
  if (code === undefined && statusText === undefined) return null;
  const errors = op.responses.filter((r) => r.status >= 400);
  const status = statusText === undefined ? undefined : Number(statusText);
  if (status !== undefined && !errors.some((r) => r.status === status)) {
    return invalid("x-mock-status", `must be an error status ${op.operationId} documents: ${errors.map((r) => r.status).join(", ")}`);
  }
  const found = documentedError(op, { status, code });
  if (!found) {
    const codes = errors
      .filter((r) => status === undefined || r.status === status)
      .flatMap((r) => r.examples.flatMap((e) => (e.code ? [e.code] : [])));
    const where = status === undefined ? "" : ` for ${status}`;
    return invalid("x-mock-error", `must be an error code ${op.operationId} documents${where}: ${[...new Set(codes)].join(", ")}`);
  }
  return documentedResult(data, op, found, path, requestId);
}
