// What each operation of the contract takes and answers, as TypeScript types derived from the generated `operations`
// (openapi-typescript). Route handlers are typed by these (server/routes/route.ts), and domain functions that decide a
// write's answer type it with `OperationOutcome<"operationId">`, so a field the contract lacks, or a status or body it
// does not declare, fails to compile instead of failing a runtime test.
import type { operations } from "../generated/openapi.ts";

export type OperationId = keyof operations;
type Operation<K extends OperationId> = operations[K];
type Parameters<K extends OperationId> = Operation<K>["parameters"];
type NoFields = Record<never, never>;

/** The JSON body of a request part; `never` when it carries none. */
type JsonOf<Part> = Part extends { content: { "application/json": infer Body } } ? Body : never;

/** The validated request body; an optional body is `undefined` when absent. An operation that declares no body gets
 * `unknown`: nothing validated it, whatever a client sent anyway. */
export type RequestBody<K extends OperationId> =
  Operation<K> extends { requestBody: infer Body }
    ? JsonOf<Body>
    : Operation<K> extends { requestBody?: infer Body }
      ? [JsonOf<Exclude<Body, undefined>>] extends [never]
        ? unknown
        : JsonOf<Exclude<Body, undefined>> | undefined
      : unknown;

/** Parameters of one location (`path`, `query`, `header`); an empty record when the operation declares none. */
type ParametersIn<K extends OperationId, Where extends "path" | "query" | "header"> = [
  Exclude<Parameters<K>[Where & keyof Parameters<K>], undefined>,
] extends [never]
  ? NoFields
  : Exclude<Parameters<K>[Where & keyof Parameters<K>], undefined>;

export type PathParams<K extends OperationId> = ParametersIn<K, "path">;
/** Query parameters as the contract types them: integer parameters arrive as numbers (server/routes/route.ts converts them). */
export type QueryParams<K extends OperationId> = ParametersIn<K, "query">;
export type HeaderParams<K extends OperationId> = ParametersIn<K, "header">;

type Responses<K extends OperationId> = Operation<K>["responses"];

/** The answer a status declares: its JSON body, or no body. Statuses whose content is another media type (problem+json
 * errors) are no outcome here: errors are thrown as ServiceError and rendered in the surface's error shape. */
type OutcomeFor<Status, Part> = Part extends { content: { "application/json": infer Body } }
  ? { status: Status; body: Body; headers?: Record<string, string> }
  : Part extends { content: object }
    ? never
    : { status: Status; body?: undefined; headers?: Record<string, string> };

/** One answer the operation declares: a status and its JSON body. */
export type OperationOutcome<K extends OperationId> = {
  [Status in keyof Responses<K> & number]: OutcomeFor<Status, Responses<K>[Status]>;
}[keyof Responses<K> & number];
