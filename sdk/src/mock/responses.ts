// Assembling the mock's answers: the headers a documented response carries, its own errors in the server's shape
// (api-errors.ts), and documented error examples with this request's id and path.
import { ERROR_CODES } from "../protocol/error-codes.ts";
import { type MockError, renderError } from "./api-errors.ts";
import { clone } from "./mock-state.ts";
import type { MockData, MockExample, MockOperationSpec, MockResponseSpec, MockResult } from "./types.ts";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** As the server sends JSON: `; charset=utf-8`. */
const withCharset = (contentType: string) => (contentType.includes("charset") ? contentType : `${contentType}; charset=utf-8`);

/** The headers a documented response carries: the request id, its content type, plausible rate-limit values. */
export function responseHeaders(response: MockResponseSpec, requestId: string): Record<string, string> {
  const out: Record<string, string> = { "x-request-id": requestId };
  if (response.contentType) out["content-type"] = withCharset(response.contentType);
  const documented = new Set(response.headers.map((h) => h.toLowerCase()));
  if (documented.has("x-ratelimit-limit")) out["x-ratelimit-limit"] = "600";
  if (documented.has("x-ratelimit-remaining")) out["x-ratelimit-remaining"] = "599";
  if (documented.has("x-ratelimit-reset")) out["x-ratelimit-reset"] = "60";
  if (documented.has("ratelimit")) out.ratelimit = '"default";r=599;t=60';
  if (documented.has("ratelimit-policy")) out["ratelimit-policy"] = '"default";q=600;w=60';
  if (documented.has("retry-after") || response.status === 429 || response.status === 503) out["retry-after"] = "1";
  return out;
}

/** An error of the mock's own, in the server's shape for the path, with the operation's documented headers. */
export function errorResult(path: string, error: MockError, requestId: string, op?: MockOperationSpec): MockResult {
  const { contentType, body } = renderError(path, error, requestId);
  const { status } = ERROR_CODES[error.code];
  const response = op?.responses.find((r) => r.status === status);
  const headers = response ? responseHeaders(response, requestId) : { "x-request-id": requestId };
  headers["content-type"] = contentType;
  return { status, headers, body, operationId: op?.operationId };
}

/** The operation's documented error response (and example) of that status and/or code, if any. */
export function documentedError(
  op: MockOperationSpec,
  select: { status?: number; code?: string },
): { response: MockResponseSpec; example: MockExample | undefined } | undefined {
  const code = select.code?.toLowerCase();
  for (const response of op.responses) {
    if (response.status < 400 || (select.status !== undefined && response.status !== select.status)) continue;
    if (code === undefined) return { response, example: response.examples[0] };
    const example = response.examples.find((e) => e.code?.toLowerCase() === code);
    if (example) return { response, example };
  }
  return undefined;
}

/** How the API names the resource an operation names in its 404 (its last path parameter that names one, else its
 * first body reference): `Card programme`. */
export function resourceNoun(data: MockData, op: MockOperationSpec): string | undefined {
  const store = [...op.params].reverse().find((p) => p.in === "path" && p.resource)?.resource ?? op.bodyRefs?.[0]?.resource;
  return store ? data.schemas[store]?.noun : undefined;
}

/** A documented error example as the answer: this request's id and path; a 404 names the operation's resource. */
export function documentedResult(
  data: MockData,
  op: MockOperationSpec,
  found: { response: MockResponseSpec; example: MockExample | undefined },
  path: string,
  requestId: string,
): MockResult {
  const { response, example } = found;
  const body = clone(example ? data.values[example.value] : undefined) as Json | undefined;
  if (isObject(body)) {
    if ("requestId" in body) body.requestId = requestId;
    if ("instance" in body) body.instance = path;
    const noun = resourceNoun(data, op);
    if (noun && response.status === 404 && String(body.code).toUpperCase() === "NOT_FOUND") {
      if ("detail" in body) body.detail = `${noun} not found`;
      if ("error" in body) body.error = `${noun} not found`;
    }
  }
  return { status: response.status, headers: responseHeaders(response, requestId), body, operationId: op.operationId };
}
