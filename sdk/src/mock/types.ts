// Shape of the generated mock data (sdk/src/generated/mock-data.ts), derived from the spec by `npm run generate`.

export interface MockExample {
  name: string;
  /** The error code of an error example (`code` of the body). */
  code?: string;
  /** Index of the example's value in `MockData.values`. */
  value: number;
}

/** The subset of JSON Schema the mock checks request values against before copying them into a response. */
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
  schema: {
    type?: string;
    enum?: unknown[];
    pattern?: string;
    minimum?: number;
    maximum?: number;
    minLength?: number;
    maxLength?: number;
    /** An array parameter, sent repeated (`?type=a&type=b`): its count bounds and items' schema. */
    minItems?: number;
    maxItems?: number;
    items?: MockJsonSchema;
    default?: unknown;
  };
  /** For a path parameter: the component schema of the resource it names (e.g. `Card` for `cardId`). */
  resource?: string;
}

export interface MockOperationSpec {
  operationId: string;
  method: string;
  path: string;
  surface: "v1" | "v2" | "metric" | "admin" | "health";
  security: "apiKey" | "schedulerSecret" | "adminToken" | "none";
  idempotency: "required" | "optional" | "none";
  params: MockParamSpec[];
  responses: MockResponseSpec[];
  /** The component schema a success response returns, and the request fields copied into it. */
  resource?: { schema: string; echo: Record<string, MockJsonSchema> };
  /** A list operation (its `x-pagination`): the item schema, and how it pages (`none`: the whole list at once). */
  list?: { itemSchema: string | null; pagination: MockPagination };
}

/** A list's `x-pagination` as generated: parameter names (`param` is the cursor parameter) and response field names. */
export type MockPagination =
  | { kind: "offset"; items: string; offsetParam: string; limitParam?: string; total?: string }
  | { kind: "cursor"; items: string; param: string; nextCursor: string; limitParam?: string; hasMore?: string }
  | { kind: "none"; items: string; total?: string };

export interface MockSchemaSpec {
  /** The property that identifies a resource of this schema (`id`, `cardId`, …). */
  idField?: string;
  /** Ids that appear in the spec's examples: the mock answers them even before anything was created. */
  exampleIds: string[];
  /** Some operation creates resources of this schema (POST … 201): unknown ids are 404. */
  creatable: boolean;
}

export interface MockData {
  operations: MockOperationSpec[];
  schemas: Record<string, MockSchemaSpec>;
  /** The spec's event types (top-level `webhooks`), each with a plausible `data` for `emitMockEvent`. */
  webhooks?: MockWebhookSpec[];
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
