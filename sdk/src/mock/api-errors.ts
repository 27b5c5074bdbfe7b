// The errors the mock answers by itself (authentication, validation, routing, idempotency, missing resources), with
// the server's own table and writer (../protocol/error-codes.ts, ../protocol/error-body.ts): RFC 9457 problem+json on
// /api/v2, `{error, code, requestId}` elsewhere; `errors` only on validation failures.
import { renderErrorBody } from "../protocol/error-body.ts";
import type { ErrorCode } from "../protocol/error-codes.ts";

/** The codes the mock answers with itself (documented errors of an operation come from its examples). */
export type MockErrorCode = Extract<
  ErrorCode,
  | "VALIDATION_ERROR"
  | "INVALID_INPUT"
  | "IDEMPOTENCY_KEY_REQUIRED"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "IDEMPOTENCY_KEY_REUSED"
  | "INTERNAL_ERROR"
>;

export interface MockError {
  code: MockErrorCode;
  message: string;
  errors?: Array<{ path: string; message: string }>;
  /** Extra problem members, e.g. `spendingLimit` of a call past an API key's spending limit. */
  extensions?: Record<string, unknown>;
}

/** The body and content type of an error, as the server renders it for a request to `pathname`: problem+json on
 * /api/v2, the v1 shape on every other path (v1, metrics, probes, unknown routes). */
export function renderError(pathname: string, error: MockError, requestId: string): { contentType: string; body: Record<string, unknown> } {
  return renderErrorBody(error, { problem: pathname.startsWith("/api/v2/"), path: pathname, requestId });
}
