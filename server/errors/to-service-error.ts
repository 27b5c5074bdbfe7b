// Turns anything thrown in the chain (body parser, validator, database, bugs) into a ServiceError. Infrastructure
// failures go through the one classifier (server/errors/classify-failure.ts): unavailable or a conflict that outlived
// the unit of work's retries → 503 with Retry-After, an unmapped unique violation → 409 STATE_CONFLICT.
import { classifyFailure, UNAVAILABLE_RETRY_AFTER_SECONDS } from "./classify-failure.ts";
import { type FieldError, ServiceError } from "./service-error.ts";

export interface ErrorContext {
  /** The 503 codes the request's operation documents: STORAGE_UNAVAILABLE there replaces SERVICE_UNAVAILABLE for a
   * database that cannot be reached (server/spec/operations.ts reads them from the spec). */
  unavailableCodes?: readonly string[];
}

function unavailable(error: unknown, context: ErrorContext): ServiceError {
  const kind = classifyFailure(error);
  if (kind === "conflict")
    return new ServiceError("SERVICE_UNAVAILABLE", "The request met concurrent writes and was not executed; retry", {
      retryAfterSeconds: 1,
      cause: error,
    });
  return context.unavailableCodes?.includes("STORAGE_UNAVAILABLE")
    ? new ServiceError("STORAGE_UNAVAILABLE", "Storage is unavailable; nothing was written", {
        retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
        cause: error,
      })
    : new ServiceError("SERVICE_UNAVAILABLE", "A backing service is unavailable; nothing was written", {
        retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
        cause: error,
      });
}

interface ValidatorError {
  status: number;
  message?: string;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
}

function isValidatorError(error: unknown): error is ValidatorError {
  return typeof error === "object" && error !== null && "status" in error && Array.isArray((error as ValidatorError).errors);
}

const toPointer = (path: string | undefined) =>
  (path ?? "")
    .replace(/^\./, "/")
    .replace(/\./g, "/")
    .replace(/\[(\d+)\]/g, "/$1");

export function toServiceError(error: unknown, context: ErrorContext = {}): { error: ServiceError; unexpected: boolean } {
  if (error instanceof ServiceError) {
    // A 500 that wraps an outage or a write conflict (e.g. CARD_LEDGER_WRITE_FAILED around a lost connection) is not a
    // defect: it is the same 503 as the bare failure.
    if (error.status === 500 && error.cause !== undefined) {
      const kind = classifyFailure(error.cause);
      if (kind === "unavailable" || kind === "conflict") return { error: unavailable(error.cause, context), unexpected: false };
    }
    return { error, unexpected: error.status >= 500 && error.code === "INTERNAL_ERROR" };
  }
  const bodyParser = error as { type?: string; status?: number };
  switch (bodyParser?.type) {
    case "entity.too.large":
      return { error: new ServiceError("PAYLOAD_TOO_LARGE", "The request body exceeds the size limit"), unexpected: false };
    case "entity.parse.failed":
      return {
        error: new ServiceError("VALIDATION_ERROR", "The request body is not valid JSON", {
          errors: [{ path: "/body", message: "malformed JSON" }],
        }),
        unexpected: false,
      };
    case "encoding.unsupported":
    case "charset.unsupported":
      return { error: new ServiceError("UNSUPPORTED_MEDIA_TYPE", "Unsupported content encoding or charset"), unexpected: false };
  }
  if (isValidatorError(error)) {
    const errors: FieldError[] = (error.errors ?? []).map((e) => ({ path: toPointer(e.path), message: e.message ?? "is invalid" }));
    switch (error.status) {
      case 400: {
        const missingKey = errors.some((e) => e.path === "/headers/idempotency-key" && /required/.test(e.message));
        if (missingKey)
          return {
            error: new ServiceError("IDEMPOTENCY_KEY_REQUIRED", "This operation requires an Idempotency-Key header", {
              errors: [{ path: "/headers/idempotency-key", message: "is required" }],
            }),
            unexpected: false,
          };
        const detail = errors.map((e) => `${e.path} ${e.message}`).join("; ");
        return { error: new ServiceError("VALIDATION_ERROR", detail || "The request is invalid", { errors }), unexpected: false };
      }
      case 404:
        return { error: new ServiceError("NOT_FOUND", "No such route"), unexpected: false };
      case 405:
        return { error: new ServiceError("METHOD_NOT_ALLOWED", "Method not allowed"), unexpected: false };
      case 413:
        return { error: new ServiceError("PAYLOAD_TOO_LARGE", "The request body exceeds the size limit"), unexpected: false };
      case 415:
        return { error: new ServiceError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json"), unexpected: false };
    }
    // Response validation failures (500) are our bugs.
    return { error: new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"), unexpected: true };
  }
  // Any other body-parser failure (e.g. a corrupt gzip body) is an http-errors client error: the request's fault.
  const clientError = error as { status?: unknown; expose?: unknown };
  if (typeof clientError?.status === "number" && clientError.status >= 400 && clientError.status < 500 && clientError.expose === true) {
    return {
      error: new ServiceError("VALIDATION_ERROR", "The request body could not be read", {
        errors: [{ path: "/body", message: "could not be read or decoded" }],
      }),
      unexpected: false,
    };
  }
  switch (classifyFailure(error)) {
    case "unavailable":
    case "conflict":
      return { error: unavailable(error, context), unexpected: false };
    case "unique":
      return {
        error: new ServiceError("STATE_CONFLICT", "A conflicting record already exists; nothing was written", { cause: error }),
        unexpected: false,
      };
  }
  return { error: new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"), unexpected: true };
}
