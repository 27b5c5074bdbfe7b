import { ERROR_CODES, type ErrorCode } from "./codes.ts";

export interface FieldError {
  path: string;
  message: string;
}

export interface ServiceErrorOptions {
  errors?: FieldError[];
  /** Extra problem members, e.g. `reasons` for COMPLIANCE_BLOCKED. */
  extensions?: Record<string, unknown>;
  /** Seconds for a Retry-After header. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** The one error type of the service. `message` is shown to the caller, so it never carries internals. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly extensions?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "ServiceError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.extensions = options.extensions;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (what: string) => new ServiceError("NOT_FOUND", `${what} not found`);
export const validationError = (path: string, message: string) =>
  new ServiceError("VALIDATION_ERROR", `${path} ${message}`, { errors: [{ path, message }] });
