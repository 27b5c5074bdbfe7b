// Turns anything thrown in the chain (body parser, validator, database, bugs) into a ServiceError.
import { isDatabaseUnavailable } from "./database-errors.ts";
import { type FieldError, ServiceError } from "./service-error.ts";

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

export function toServiceError(error: unknown): { error: ServiceError; unexpected: boolean } {
  if (error instanceof ServiceError) return { error, unexpected: error.status >= 500 && error.code === "INTERNAL_ERROR" };
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
            error: new ServiceError("IDEMPOTENCY_KEY_REQUIRED", "This operation requires an Idempotency-Key header"),
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
  if (isDatabaseUnavailable(error)) {
    return {
      error: new ServiceError("STORAGE_UNAVAILABLE", "Storage is unavailable; nothing was written", { retryAfterSeconds: 5 }),
      unexpected: false,
    };
  }
  return { error: new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"), unexpected: true };
}
