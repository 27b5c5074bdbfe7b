// Shape of the generated mock data (sdk/src/generated/mock-data.ts), derived from the spec by `npm run generate`, and of
// the engine's input and output.

export interface MockRequest {
  method: string;
  /** Absolute URL or path with query. */
  url: string;
  headers: Headers | Record<string, string | undefined>;
  /** Parsed JSON body (undefined when none). */
  body?: unknown;
  /** The body was sent as JSON but does not parse (→ 400). */
  invalidJson?: boolean;
}

export interface MockResult {
  status: number;
  headers: Record<string, string>;
  /** JSON body, undefined for a response without one. */
  body: unknown;
  /** The operation that answered (undefined for unknown routes). */
  operationId?: string;
}

export interface MockExample {
  name: string;
  /** The error code of an error example (`code` of the body). */
  code?: string;
  /** Index of the example's value in `MockData.values`. */
  value: number;
}

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) without its documentation keywords. */
export type MockJsonSchema = { [keyword: string]: unknown };

export interface MockResponseSpec {
  status: number;
  /** `application/json`, `application/problem+json`, or null for a response without a body. */
  contentType: string | null;
  /** Header names the spec documents for this response. */
  headers: string[];
  examples: MockExample[];
}

export interface MockParamSpec {
  name: string;
  in: "path" | "query";
  required: boolean;
  /** What the engine reads besides validation (`request` validates): the type (an array is sent repeated) and default. */
  schema: { type?: string; default?: unknown };
  /** For a path parameter: the store of the resource it names (e.g. `Card` for `cardId`). */
  resource?: string;
}

/** One parameter as the request validator checks it (header names lower case; the schema resolved inline). */
export interface MockRequestParam {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: MockJsonSchema;
}

/** What a request of the operation is validated against, as the server's validator does. */
export interface MockRequestSpec {
  parameters: MockRequestParam[];
  /** The JSON body: its schema (`$ref`s into `MockData.requestSchemas`), whether it is required, its media types. */
  body?: { required: boolean; contentTypes: string[]; schema: MockJsonSchema };
}

export interface MockOperationSpec {
  operationId: string;
  method: string;
  path: string;
  surface: "v1" | "v2" | "metric" | "admin" | "health";
  security: "apiKey" | "session" | "schedulerSecret" | "adminToken" | "none";
  /** Scopes the API key needs (`<resource>:<read|write>`; write implies read). */
  scopes: string[];
  idempotency: "required" | "optional" | "none";
  params: MockParamSpec[];
  request: MockRequestSpec;
  /** Top-level body fields that name a resource (`transferId` → `BankTransfer`): the store it is kept in. */
  bodyRefs?: Array<{ field: string; resource: string }>;
  responses: MockResponseSpec[];
  /** The component schema a success response returns, and the request fields copied into it. */
  resource?: { schema: string; echo: Record<string, MockJsonSchema> };
  /** A list operation (its `x-pagination`): the item schema, and how it pages (`none`: the whole list at once). */
  list?: { itemSchema: string | null; pagination: MockPagination };
}

/** A list's `x-pagination` as generated: parameter names (`param` is the cursor parameter) and response field names. */
export type MockPagination =
  | { kind: "offset"; items: string; offsetParam: string; limitParam?: string; total?: string }
  | {
      kind: "cursor";
      items: string;
      param: string;
      nextCursor: string;
      limitParam?: string;
      hasMore?: string;
      offsetParam?: string;
      total?: string;
    }
  | { kind: "none"; items: string; total?: string };

export interface MockSchemaSpec {
  /** The store resources of this schema are kept in: the schema itself, or the schema it is a view of (same id, a
   * subset or superset of its properties: `WebhookEndpointWithSecret` is kept as a `WebhookEndpoint`). */
  store: string;
  /** The property that identifies a resource of this schema (`id`, `cardId`, …). */
  idField?: string;
  /** Its properties: a stored resource answered as this schema shows these only. */
  properties: string[];
  /** Store only: the literal prefix of its ids (`card_`). */
  idPrefix?: string;
  /** Store only: ids that appear in the spec: the mock answers them even before anything was created. */
  exampleIds?: string[];
  /** Store only: some operation creates resources of it (201/202): unknown ids are 404. */
  creatable?: boolean;
  /** Store only: created by a POST on a collection, so its lists are served from the mock's state. */
  listed?: boolean;
  /** Store only: its name in the API's 404 message (`Card programme` → "Card programme not found"). */
  noun?: string;
}

export interface MockData {
  operations: MockOperationSpec[];
  schemas: Record<string, MockSchemaSpec>;
  /** The spec's event types (top-level `webhooks`), each with a plausible `data` for `emitMockEvent`. */
  webhooks?: MockWebhookSpec[];
  /** The component schemas request bodies refer to (`#/components/schemas/<name>`). */
  requestSchemas: Record<string, MockJsonSchema>;
  /** Every scope an API key may hold. */
  scopes: string[];
  /** ISO 3166-1 alpha-2 codes (the `iso3166-alpha2` and `iso3166-region` formats). */
  countries: string[];
  /** Example values, stored once. */
  values: unknown[];
}

export interface MockWebhookSpec {
  /** The event type, e.g. `bank_transfer.completed`. */
  type: string;
  /** The component schema of the event's `data`, when it names one. */
  dataSchema?: string;
  /** Index of a sample `data` in `MockData.values`: the event's example, else an example of the same resource. */
  data: number;
}
