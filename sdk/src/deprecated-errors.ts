// The error class names before the `Coinplane` prefix, kept so existing code compiles and `instanceof` keeps working:
// each is the same class as its replacement (a value and a type of the same name). To be removed in a major version.
import {
  CoinplaneAbortError,
  CoinplaneAuthenticationError,
  CoinplaneBadRequestError,
  CoinplaneConfigurationError,
  CoinplaneConflictError,
  CoinplaneConnectionError,
  CoinplaneFailedDependencyError,
  CoinplaneInternalServerError,
  CoinplaneNotFoundError,
  CoinplanePermissionDeniedError,
  CoinplaneRateLimitError,
  CoinplaneTimeoutError,
  CoinplaneUnprocessableEntityError,
} from "./errors.ts";

/** @deprecated Use `CoinplaneBadRequestError`. */
export const BadRequestError = CoinplaneBadRequestError;
/** @deprecated Use `CoinplaneBadRequestError`. */
export type BadRequestError = CoinplaneBadRequestError;
/** @deprecated Use `CoinplaneAuthenticationError`. */
export const AuthenticationError = CoinplaneAuthenticationError;
/** @deprecated Use `CoinplaneAuthenticationError`. */
export type AuthenticationError = CoinplaneAuthenticationError;
/** @deprecated Use `CoinplanePermissionDeniedError`. */
export const PermissionDeniedError = CoinplanePermissionDeniedError;
/** @deprecated Use `CoinplanePermissionDeniedError`. */
export type PermissionDeniedError = CoinplanePermissionDeniedError;
/** @deprecated Use `CoinplaneNotFoundError`. */
export const NotFoundError = CoinplaneNotFoundError;
/** @deprecated Use `CoinplaneNotFoundError`. */
export type NotFoundError = CoinplaneNotFoundError;
/** @deprecated Use `CoinplaneConflictError`. */
export const ConflictError = CoinplaneConflictError;
/** @deprecated Use `CoinplaneConflictError`. */
export type ConflictError = CoinplaneConflictError;
/** @deprecated Use `CoinplaneUnprocessableEntityError`. */
export const UnprocessableEntityError = CoinplaneUnprocessableEntityError;
/** @deprecated Use `CoinplaneUnprocessableEntityError`. */
export type UnprocessableEntityError = CoinplaneUnprocessableEntityError;
/** @deprecated Use `CoinplaneFailedDependencyError`. */
export const FailedDependencyError = CoinplaneFailedDependencyError;
/** @deprecated Use `CoinplaneFailedDependencyError`. */
export type FailedDependencyError = CoinplaneFailedDependencyError;
/** @deprecated Use `CoinplaneRateLimitError`. */
export const RateLimitError = CoinplaneRateLimitError;
/** @deprecated Use `CoinplaneRateLimitError`. */
export type RateLimitError = CoinplaneRateLimitError;
/** @deprecated Use `CoinplaneInternalServerError`. */
export const InternalServerError = CoinplaneInternalServerError;
/** @deprecated Use `CoinplaneInternalServerError`. */
export type InternalServerError = CoinplaneInternalServerError;
/** @deprecated Use `CoinplaneConnectionError`. */
export const ConnectionError = CoinplaneConnectionError;
/** @deprecated Use `CoinplaneConnectionError`. */
export type ConnectionError = CoinplaneConnectionError;
/** @deprecated Use `CoinplaneTimeoutError`. */
export const TimeoutError = CoinplaneTimeoutError;
/** @deprecated Use `CoinplaneTimeoutError`. */
export type TimeoutError = CoinplaneTimeoutError;
/** @deprecated Use `CoinplaneAbortError`. */
export const AbortError = CoinplaneAbortError;
/** @deprecated Use `CoinplaneAbortError`. */
export type AbortError = CoinplaneAbortError;
/** @deprecated Use `CoinplaneConfigurationError`. */
export const ConfigurationError = CoinplaneConfigurationError;
/** @deprecated Use `CoinplaneConfigurationError`. */
export type ConfigurationError = CoinplaneConfigurationError;
