// @coinplane/sdk — typed client for the Coinplane API (sandbox v1, agent v2, metrics). The partner mock is
// `@coinplane/sdk/mock`.
export { ApiPromise, type ResponseInfo, type WithResponse } from "./api-promise.ts";
export { Coinplane, type CoinplaneOptions, type Environment } from "./client.ts";
export {
  AbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  FailedDependencyError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
} from "./deprecated-errors.ts";
export {
  type ApiErrorBody,
  type ClientErrorCode,
  CoinplaneAbortError,
  CoinplaneApiError,
  CoinplaneAuthenticationError,
  CoinplaneBadRequestError,
  CoinplaneConfigurationError,
  CoinplaneConflictError,
  CoinplaneConnectionError,
  CoinplaneError,
  type CoinplaneErrorCode,
  CoinplaneFailedDependencyError,
  CoinplaneInternalServerError,
  CoinplaneNotFoundError,
  CoinplanePermissionDeniedError,
  CoinplaneRateLimitError,
  CoinplaneTimeoutError,
  CoinplaneUnprocessableEntityError,
  type ComplianceReason,
  type FieldError,
  isCoinplaneError,
} from "./errors.ts";
export type * from "./generated/namespaces.ts";
export type { components, operations, paths } from "./generated/openapi.ts";
export { type ApiErrorCode, errorCodes, type OperationId, operationTable } from "./generated/operations.ts";
/** A named, documented alias per schema of the contract: `Schemas.Wallet` is `components["schemas"]["Wallet"]`. */
export type * as Schemas from "./generated/schemas.ts";
export { type NamespaceName, type OperationMap, operationMap, type SdkOperationId } from "./operation-map.ts";
export { DEFAULT_TO_ARRAY_LIMIT, PagePromise, type ToArrayOptions } from "./pagination.ts";
export { backoffDelay, type Hooks, type RequestHookEvent, type ResponseHookEvent, type RetryPolicy } from "./transport.ts";
export type {
  InputArgs,
  ListItem,
  Method,
  MethodArgs,
  MethodResult,
  QueryParams,
  RequestBody,
  RequestOptions,
  ResponseBody,
} from "./types.ts";
// Receiving webhooks: `webhooks.verify`, the Standard Webhooks helpers and the typed events (their list is in webhooks/index.ts).
export * from "./webhooks/index.ts";
