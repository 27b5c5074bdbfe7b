// From an HTTP error answer to its typed error: the class by status, the fields from either error body (v1/metrics
// `{error, code, requestId}` or v2 problem+json) or from the headers when the body is neither.
import {
  CoinplaneApiError,
  CoinplaneAuthenticationError,
  CoinplaneBadRequestError,
  CoinplaneConflictError,
  CoinplaneFailedDependencyError,
  CoinplaneInternalServerError,
  CoinplaneNotFoundError,
  CoinplanePermissionDeniedError,
  CoinplaneRateLimitError,
  CoinplaneUnprocessableEntityError,
  type ComplianceReason,
  type FieldError,
} from "./errors.ts";

const CLASS_BY_STATUS: Record<number, typeof CoinplaneApiError> = {
  400: CoinplaneBadRequestError,
  401: CoinplaneAuthenticationError,
  403: CoinplanePermissionDeniedError,
  404: CoinplaneNotFoundError,
  409: CoinplaneConflictError,
  422: CoinplaneUnprocessableEntityError,
  424: CoinplaneFailedDependencyError,
  429: CoinplaneRateLimitError,
};

/** The error class of an HTTP status: its own for the documented ones, `CoinplaneInternalServerError` for 5xx,
 * `CoinplaneApiError` for any other. */
export function errorClassFor(status: number): typeof CoinplaneApiError {
  return CLASS_BY_STATUS[status] ?? (status >= 500 ? CoinplaneInternalServerError : CoinplaneApiError);
}

/** Seconds from a `Retry-After` header (delta-seconds or HTTP date); undefined when absent or invalid. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** Builds the typed error of an HTTP error response from its parsed body (either error shape, or anything else). */
export function errorFromResponse(response: Response, body: unknown, operationId?: string): CoinplaneApiError {
  const b = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const requestId = str(b.requestId) ?? response.headers.get("x-request-id") ?? undefined;
  const code = str(b.code) ?? "UNEXPECTED_RESPONSE";
  const message =
    str(b.detail) ??
    str(b.error) ??
    str(b.title) ??
    `${response.status} ${response.statusText || "error"}${typeof body === "string" && body ? `: ${body.slice(0, 200)}` : ""}`;
  const Cls = errorClassFor(response.status);
  return new Cls({
    message,
    code,
    status: response.status,
    requestId,
    errors: Array.isArray(b.errors) ? (b.errors as FieldError[]) : undefined,
    reasons: Array.isArray(b.reasons) ? (b.reasons as ComplianceReason[]) : undefined,
    type: str(b.type),
    title: str(b.title),
    detail: str(b.detail),
    instance: str(b.instance),
    headers: response.headers,
    body,
    retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
    operationId,
  });
}
