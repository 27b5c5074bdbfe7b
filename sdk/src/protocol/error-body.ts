// How an error is written on the wire, shared by the server's error middleware (server/middleware/error-handler.ts)
// and the partner mock (../mock/api-errors.ts): RFC 9457 problem+json on /api/v2, `{error, code, requestId}` on every
// other path (v1, metrics, admin, probes); `errors` only on validation failures. Pure, so the SDK package carries it.
import { ERROR_CODES, type ErrorCode } from "./error-codes.ts";

export interface ErrorToRender {
  code: ErrorCode;
  /** Shown to the caller: `detail` of a problem, `error` of the v1 shape. */
  message: string;
  errors?: ReadonlyArray<{ path: string; message: string }>;
  /** Extra problem members (e.g. `reasons` of COMPLIANCE_BLOCKED); the v1 shape carries only `spendingLimit`. */
  extensions?: Record<string, unknown>;
}

export const JSON_TYPE = "application/json; charset=utf-8";
export const PROBLEM_TYPE = "application/problem+json; charset=utf-8";

/** The body and content type of `error` answered to the request for `path` (`problem`: a /api/v2 request). */
export function renderErrorBody(
  error: ErrorToRender,
  request: { problem: boolean; path: string; requestId: string },
): { contentType: string; body: Record<string, unknown> } {
  const { status, title, v1 } = ERROR_CODES[error.code];
  const errors = error.errors ? { errors: error.errors } : {};
  if (request.problem) {
    return {
      contentType: PROBLEM_TYPE,
      body: {
        type: `https://docs.coinplane.dev/errors/${error.code.toLowerCase()}`,
        title,
        status,
        detail: error.message,
        instance: request.path,
        code: error.code,
        requestId: request.requestId,
        ...errors,
        ...error.extensions,
      },
    };
  }
  // A refused v1 payment names the API key's spending limit it met, as the agent API's problem does.
  const spendingLimit = error.extensions?.spendingLimit ? { spendingLimit: error.extensions.spendingLimit } : {};
  return { contentType: JSON_TYPE, body: { error: error.message, code: v1, requestId: request.requestId, ...errors, ...spendingLimit } };
}
