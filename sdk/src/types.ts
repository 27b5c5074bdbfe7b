// Type machinery: each SDK method's arguments and result, derived from the generated spec types.
// A method takes its path parameters positionally (in path order), then the request body (writes) or the query (reads),
// then per-request options: `cards.fund(cardId, { amount, asset }, { idempotencyKey })`.

import type { ApiPromise } from "./api-promise.ts";
import type { operations } from "./generated/openapi.ts";
import type { OperationId, operationTable } from "./generated/operations.ts";
import type { SdkOperationId } from "./operation-map.ts";
import type { PagePromise } from "./pagination.ts";

type Table = typeof operationTable;
type Op<K extends keyof operations> = operations[K];

/** One string per `{param}` of a path template, in order. */
type PathStrings<P extends string> = P extends `${string}{${string}}${infer Rest}` ? [string, ...PathStrings<Rest>] : [];
type JsonOf<T> = T extends { content: { "application/json": infer B } } ? B : never;

/** The JSON request body of an operation (`never` when it takes none). */
export type RequestBody<K extends keyof operations> =
  Op<K> extends { requestBody: infer RB } ? JsonOf<RB> : Op<K> extends { requestBody?: infer RB } ? JsonOf<NonNullable<RB>> : never;

/** The query parameters of an operation (`never` when it takes none). */
export type QueryParams<K extends keyof operations> = NonNullable<Op<K>["parameters"]["query"]>;

type BodyRequired<K extends keyof operations> = Op<K> extends { requestBody: { content: unknown } } ? true : false;
type QueryRequired<K extends keyof operations> = undefined extends Op<K>["parameters"]["query"] ? false : true;

type SuccessStatus = 200 | 201 | 202 | 203 | 206;
type Responses<K extends keyof operations> = Op<K>["responses"];
type SuccessBodies<K extends keyof operations> = {
  [S in keyof Responses<K>]: S extends SuccessStatus ? JsonOf<Responses<K>[S]> : never;
}[keyof Responses<K>];

/** The parsed success body of an operation (a union when it documents several 2xx responses). */
export type ResponseBody<K extends keyof operations> = [SuccessBodies<K>] extends [never] ? undefined : SuccessBodies<K>;

/** The item type of a list operation's `data`. */
export type ListItem<K extends keyof operations> = ResponseBody<K> extends { data: Array<infer I> } ? I : never;

export interface RequestOptions {
  /** Idempotency-Key for this call; without it the SDK generates one for every operation that accepts one. */
  idempotencyKey?: string;
  /** Extra headers (e.g. `X-Request-Id`, or `X-Mock-Error` against the partner mock). */
  headers?: Record<string, string>;
  /** Query parameters of a write operation that also takes some. */
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Per-attempt timeout for this call (defaults to the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries for this call (defaults to the client's `maxRetries`). */
  maxRetries?: number;
}

type PathArgs<K extends OperationId> = PathStrings<Table[K]["path"]>;
/** The arguments after the path parameters, before the options: the body (writes) or the query (reads), if any. */
export type InputArgs<K extends keyof operations> = [RequestBody<K>] extends [never]
  ? [QueryParams<K>] extends [never]
    ? []
    : QueryRequired<K> extends true
      ? [query: QueryParams<K>]
      : [query?: QueryParams<K>]
  : BodyRequired<K> extends true
    ? [body: RequestBody<K>]
    : [body?: RequestBody<K>];

/** A method's arguments: path parameters (in path order), then the body or query, then per-request options. */
export type MethodArgs<K extends SdkOperationId> = [...PathArgs<K>, ...InputArgs<K>, options?: RequestOptions];

/** What a method returns: an ApiPromise of the body, or for a paged list a PagePromise of the first page that also
 * iterates every item. */
export type MethodResult<K extends SdkOperationId> = Table[K]["pagination"] extends null
  ? ApiPromise<ResponseBody<K>>
  : PagePromise<ResponseBody<K>, ListItem<K>>;

/** An SDK method by operationId (the documented signatures are in generated/namespaces.ts). */
export type Method<K extends SdkOperationId> = (...args: MethodArgs<K>) => MethodResult<K>;
