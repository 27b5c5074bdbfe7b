// One error hierarchy for everything a call can fail with. Never an opaque fetch error:
//
//   CoinplaneError                         every failure of the SDK (`code`, `requestId`, `operationId`, …)
//   ├─ CoinplaneApiError                   the API answered with an HTTP error (`status`, `headers`, `problem`)
//   │  ├─ CoinplaneBadRequestError         400
//   │  ├─ CoinplaneAuthenticationError     401
//   │  ├─ CoinplanePermissionDeniedError   403
//   │  ├─ CoinplaneNotFoundError           404
//   │  ├─ CoinplaneConflictError           409
//   │  ├─ CoinplaneUnprocessableEntityError 422
//   │  ├─ CoinplaneFailedDependencyError   424
//   │  ├─ CoinplaneRateLimitError          429 (`retryAfter`)
//   │  └─ CoinplaneInternalServerError     5xx
//   ├─ CoinplaneConnectionError            no response: network failure …
//   │  ├─ CoinplaneTimeoutError            … an attempt ran out of `timeoutMs` …
//   │  └─ CoinplaneAbortError              … or the caller's AbortSignal fired
//   └─ CoinplaneConfigurationError         invalid client options
//
// Both error bodies of the API land in the same fields: v1/metrics `{error, code, requestId}` and v2 RFC 9457
// problem+json. The pre-prefix names (`NotFoundError`, …) remain as deprecated aliases (deprecated-errors.ts).
import type { components } from "./generated/openapi.ts";
import type { ApiErrorCode } from "./generated/operations.ts";

/** Codes the SDK itself assigns when there is no API error body. */
export type ClientErrorCode = "CONNECTION_ERROR" | "TIMEOUT" | "REQUEST_ABORTED" | "UNEXPECTED_RESPONSE" | "INVALID_CONFIGURATION";

/** Every code a `CoinplaneError` can carry: the spec's documented codes plus the SDK's own. */
export type CoinplaneErrorCode = ApiErrorCode | ClientErrorCode;

/** The API's two error bodies: v2 RFC 9457 problem details, and v1/metrics `{error, code, requestId}`. */
export type ApiErrorBody = components["schemas"]["Problem"] | components["schemas"]["V1Error"];

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

/** What an HTTP error answer always has. */
export interface CoinplaneApiErrorInit extends CoinplaneErrorInit {
  status: number;
  headers: Headers;
}

/** Every failure of an SDK call. Narrow with `instanceof` on a subclass, or by code with `isCoinplaneError(err, code)`. */
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
  /** RFC 9457 `type` of a v2 problem. */
  readonly type: string | undefined;
  /** RFC 9457 `title` of a v2 problem. */
  readonly title: string | undefined;
  /** RFC 9457 `detail` of a v2 problem. */
  readonly detail: string | undefined;
  /** RFC 9457 `instance` of a v2 problem (the request path). */
  readonly instance: string | undefined;
  /** Seconds the server asked to wait (`Retry-After` on 429/503). */
  readonly retryAfterSeconds: number | undefined;
  /** Response headers, when there was a response. */
  readonly headers: Headers | undefined;
  /** The parsed error body (the text when it was not JSON), when there was one. */
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

const isErrorBody = (body: unknown): body is ApiErrorBody =>
  typeof body === "object" && body !== null && !Array.isArray(body) && typeof (body as { code?: unknown }).code === "string";

/** The API answered with an HTTP error status (4xx/5xx). Statuses without a class of their own are this class. */
export class CoinplaneApiError extends CoinplaneError {
  declare readonly status: number;
  declare readonly headers: Headers;
  /** The error body when it is one of the API's error shapes (v2 problem+json or v1 `{error, code, requestId}`);
   * undefined when the answer carried something else (e.g. an HTML page of a proxy — then see `body`). */
  readonly problem: ApiErrorBody | undefined;

  constructor(init: CoinplaneApiErrorInit) {
    super(init);
    this.problem = isErrorBody(init.body) ? init.body : undefined;
  }
}

/** 400: the request is malformed or fails validation (see `errors`). */
export class CoinplaneBadRequestError extends CoinplaneApiError {}
/** 401: the API key is missing, unknown or revoked. */
export class CoinplaneAuthenticationError extends CoinplaneApiError {}
/** 403: the key lacks the scope or environment, or compliance blocked the request (see `reasons`). */
export class CoinplanePermissionDeniedError extends CoinplaneApiError {}
/** 404: no such resource for this organization. */
export class CoinplaneNotFoundError extends CoinplaneApiError {}
/** 409: the resource is in a state that does not allow this, or the same Idempotency-Key is still running. */
export class CoinplaneConflictError extends CoinplaneApiError {}
/** 422: semantically invalid, e.g. an Idempotency-Key reused with another body. */
export class CoinplaneUnprocessableEntityError extends CoinplaneApiError {}
/** 424: a provider the operation needs is not connected (production fails closed). */
export class CoinplaneFailedDependencyError extends CoinplaneApiError {}
/** 429: over the rate limit; the SDK already retried (honouring `Retry-After`) before surfacing this. */
export class CoinplaneRateLimitError extends CoinplaneApiError {
  /** Seconds the API asked to wait before the next request (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: CoinplaneApiErrorInit) {
    super(init);
    this.retryAfter = init.retryAfterSeconds;
  }
}
/** 5xx: the API or a dependency failed; the SDK already retried (except 501). */
export class CoinplaneInternalServerError extends CoinplaneApiError {}

/** No response was received (DNS, refused, reset, TLS …); see the subclasses for a timeout and an abort. */
export class CoinplaneConnectionError extends CoinplaneError {
  declare readonly status: undefined;
}
/** An attempt took longer than `timeoutMs` (the SDK retried before surfacing this). */
export class CoinplaneTimeoutError extends CoinplaneConnectionError {}
/** The caller's `AbortSignal` fired; never retried. */
export class CoinplaneAbortError extends CoinplaneConnectionError {}
/** The client was constructed with invalid options. */
export class CoinplaneConfigurationError extends CoinplaneError {}

/** `err` is a `CoinplaneError` (optionally with this `code`): narrows both. */
export function isCoinplaneError<C extends CoinplaneErrorCode>(err: unknown, code?: C): err is CoinplaneError & { readonly code: C } {
  return err instanceof CoinplaneError && (code === undefined || err.code === code);
}
