// @coinplane/sdk — typed client for the Coinplane API (sandbox v1, agent v2, metrics). The partner mock is
// `@coinplane/sdk/mock`.
export { Coinplane, type CoinplaneOptions, type Environment } from "./client.ts";
export {
  AbortError,
  AuthenticationError,
  BadRequestError,
  type ClientErrorCode,
  CoinplaneError,
  type CoinplaneErrorCode,
  type ComplianceReason,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  FailedDependencyError,
  type FieldError,
  InternalServerError,
  isCoinplaneError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
} from "./errors.ts";
export type { components, operations, paths } from "./generated/openapi.ts";
export { type ApiErrorCode, errorCodes, type OperationId, operationTable } from "./generated/operations.ts";
export { type NamespaceName, operationMap, type SdkOperationId } from "./operation-map.ts";
export type { PagePromise } from "./pagination.ts";
export { backoffDelay, type Hooks, type RequestHookEvent, type ResponseHookEvent, type RetryPolicy } from "./transport.ts";
export type {
  ListItem,
  Method,
  MethodArgs,
  MethodResult,
  Namespaces,
  QueryParams,
  RequestBody,
  RequestOptions,
  ResponseBody,
} from "./types.ts";
// Receiving webhooks: `webhooks.verify`, the Standard Webhooks helpers and the typed events (their list is in webhooks/index.ts).
export * from "./webhooks/index.ts";
