// The errors the mock answers by itself (authentication, validation, routing, idempotency, missing resources), in the
// server's shapes and words (server/middleware/error-handler.ts): RFC 9457 problem+json on /api/v2, `{error, code,
// requestId}` elsewhere; `errors` only on validation failures. Codes, statuses and titles are the server's
// (server/errors/codes.ts; test/sdk/mock-parity.test.ts keeps them equal).

export const MOCK_ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, title: "Validation error", v1: "invalid_request" },
  INVALID_INPUT: { status: 400, title: "Invalid input", v1: "invalid_request" },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, title: "Idempotency key required", v1: "invalid_request" },
  UNAUTHORIZED: { status: 401, title: "Unauthorized", v1: "unauthorized" },
  FORBIDDEN: { status: 403, title: "Forbidden", v1: "forbidden" },
  NOT_FOUND: { status: 404, title: "Not found", v1: "not_found" },
  METHOD_NOT_ALLOWED: { status: 405, title: "Method not allowed", v1: "method_not_allowed" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: "Unsupported media type", v1: "unsupported_media_type" },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: "Idempotency key reused", v1: "idempotency_key_reused" },
  INTERNAL_ERROR: { status: 500, title: "Internal error", v1: "internal_error" },
} as const;

export type MockErrorCode = keyof typeof MOCK_ERROR_CODES;

export interface MockError {
  code: MockErrorCode;
  message: string;
  errors?: Array<{ path: string; message: string }>;
}

/** Problem+json on /api/v2, the v1 shape on every other path (v1, metrics, probes, unknown routes). */
export const isProblemPath = (pathname: string) => pathname.startsWith("/api/v2/");

export const JSON_TYPE = "application/json; charset=utf-8";
export const PROBLEM_TYPE = "application/problem+json; charset=utf-8";

/** The body and content type of an error, as the server renders it for a request to `pathname`. */
export function renderError(pathname: string, error: MockError, requestId: string): { contentType: string; body: Record<string, unknown> } {
  const { status, title, v1 } = MOCK_ERROR_CODES[error.code];
  const errors = error.errors ? { errors: error.errors } : {};
  if (isProblemPath(pathname)) {
    return {
      contentType: PROBLEM_TYPE,
      body: {
        type: `https://docs.coinplane.dev/errors/${error.code.toLowerCase()}`,
        title,
        status,
        detail: error.message,
        instance: pathname,
        code: error.code,
        requestId,
        ...errors,
      },
    };
  }
  return { contentType: JSON_TYPE, body: { error: error.message, code: v1, requestId, ...errors } };
}
