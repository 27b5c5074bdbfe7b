// One error hierarchy for everything a call can fail with: both error bodies of the API (v1/metrics `{error, code,
// requestId}` and v2 RFC 9457 problem+json), network failures, timeouts and aborts. Never an opaque fetch error.
import type { ApiErrorCode } from "./generated/operations.ts";

/** Codes the SDK itself assigns when there is no API error body. */
export type ClientErrorCode = "CONNECTION_ERROR" | "TIMEOUT" | "REQUEST_ABORTED" | "UNEXPECTED_RESPONSE" | "INVALID_CONFIGURATION";

/** Every code a `CoinplaneError` can carry: the spec's documented codes plus the SDK's own. */
export type CoinplaneErrorCode = ApiErrorCode | ClientErrorCode;

export interface FieldError {
  path: string;
  message: string;
}

export interface ComplianceReason {
  rule: string;
  message: string;
}

export interface CoinplaneErrorInit {
  message: string;
  code: CoinplaneErrorCode | (string & {});
  status?: number;
  requestId?: string;
  errors?: FieldError[];
  reasons?: ComplianceReason[];
  /** v2 problem members (RFC 9457). */
  type?: string;
  title?: string;
  detail?: string;
  instance?: string;
  headers?: Headers;
  body?: unknown;
  retryAfterSeconds?: number;
  operationId?: string;
  cause?: unknown;
}

export class CoinplaneError extends Error {
  /** HTTP status, or undefined when no response was received (network error, timeout, abort). */
  readonly status: number | undefined;
  /** Stable machine-readable code: v2 `UPPER_SNAKE`, v1/metrics `lower_snake`, or an SDK code (`TIMEOUT`, …). */
  readonly code: CoinplaneErrorCode | (string & {});
  /** The request id (`X-Request-Id` or the body's `requestId`): quote it to support. */
  readonly requestId: string | undefined;
  /** Field errors of a validation failure (`VALIDATION_ERROR` / `invalid_request`); empty otherwise. */
  readonly errors: FieldError[];
  /** Screening and policy rules that blocked the request (`COMPLIANCE_BLOCKED`); empty otherwise. */
  readonly reasons: ComplianceReason[];
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  /** Seconds the server asked to wait (`Retry-After` on 429/503). */
  readonly retryAfterSeconds: number | undefined;
  /** Response headers, when there was a response. */
  readonly headers: Headers | undefined;
  /** The parsed error body, when there was one. */
  readonly body: unknown;
  /** The SDK operation that failed (e.g. `createPayment`), when known. */
  readonly operationId: string | undefined;

  constructor(init: CoinplaneErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.reasons = init.reasons ?? [];
    this.type = init.type;
    this.title = init.title;
    this.detail = init.detail;
    this.instance = init.instance;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.headers = init.headers;
    this.body = init.body;
    this.operationId = init.operationId;
  }

  /** Type guard on the code: `if (err.is("PROVIDER_NOT_CONNECTED")) …`. */
  is<C extends CoinplaneErrorCode>(code: C): this is this & { readonly code: C } {
    return this.code === code;
  }
}

export class BadRequestError extends CoinplaneError {}
export class AuthenticationError extends CoinplaneError {}
export class PermissionDeniedError extends CoinplaneError {}
export class NotFoundError extends CoinplaneError {}
export class ConflictError extends CoinplaneError {}
export class UnprocessableEntityError extends CoinplaneError {}
export class FailedDependencyError extends CoinplaneError {}
export class RateLimitError extends CoinplaneError {}
export class InternalServerError extends CoinplaneError {}
/** No response was received (DNS, refused, reset, TLS …). */
export class ConnectionError extends CoinplaneError {}
/** An attempt took longer than `timeoutMs`. */
export class TimeoutError extends ConnectionError {}
/** The caller's `AbortSignal` fired. */
export class AbortError extends CoinplaneError {}
/** The client was constructed with invalid options. */
export class ConfigurationError extends CoinplaneError {}

/** `err` is a `CoinplaneError` (optionally with this `code`): narrows both. */
export function isCoinplaneError<C extends CoinplaneErrorCode>(err: unknown, code?: C): err is CoinplaneError & { readonly code: C } {
  return err instanceof CoinplaneError && (code === undefined || err.code === code);
}

function classFor(status: number): typeof CoinplaneError {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 424:
      return FailedDependencyError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : CoinplaneError;
  }
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
export function errorFromResponse(response: Response, body: unknown, operationId?: string): CoinplaneError {
  const b = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const requestId = str(b.requestId) ?? response.headers.get("x-request-id") ?? undefined;
  const code = str(b.code) ?? "UNEXPECTED_RESPONSE";
  const message =
    str(b.detail) ??
    str(b.error) ??
    str(b.title) ??
    `${response.status} ${response.statusText || "error"}${typeof body === "string" && body ? `: ${body.slice(0, 200)}` : ""}`;
  const Cls = classFor(response.status);
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
