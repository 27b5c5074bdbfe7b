// What the partner mock serves (sdk/src/generated/mock-data.ts): per operation the documented examples of every status,
// its scopes, what its request is validated against (mock-request.ts), and the resource model (mock-resources.ts) for
// its in-memory state. Admin operations and placeholders are not part of the partner surface and are left out.
import { answersExample } from "../../server/spec/error-codes-of.ts";
import { allScopes, countryCodes, type MockRequestJson, mockRequest, requestSchemas } from "./mock-request.ts";
import { type MockSchema, type ResourceOperation, resourceModel } from "./mock-resources.ts";
import type { ListDeclaration } from "./pagination.ts";
import {
  type Doc,
  deref,
  examplesOf,
  type Json,
  jsonContent,
  normalize,
  objectProperties,
  type SpecOperation,
  schemaName,
  schemaRef,
  successSchema,
} from "./spec.ts";
import { type MockWebhookJson, mockWebhooks } from "./webhook-events.ts";

export { idFieldOf } from "./mock-resources.ts";

export interface MockDataJson {
  operations: Json[];
  schemas: Record<string, MockSchema>;
  webhooks: MockWebhookJson[];
  requestSchemas: Record<string, unknown>;
  scopes: string[];
  countries: string[];
  values: unknown[];
}

const CONSTRAINT_KEYS = ["type", "default"];

/** Example values stored once (error examples repeat across operations) and referenced by index. */
export class ExampleValues {
  readonly values: unknown[] = [];
  private readonly indexes = new Map<string, number>();

  indexOf(value: unknown): number {
    const key = JSON.stringify(value);
    let i = this.indexes.get(key);
    if (i === undefined) {
      i = this.values.push(value) - 1;
      this.indexes.set(key, i);
    }
    return i;
  }
}

/** What the engine reads of a parameter's schema besides validation: its type (repeated array parameters) and default. */
export function paramConstraints(doc: Doc, p: Json): Json {
  const s = deref(doc, p.schema);
  const pick: Json = {};
  for (const key of CONSTRAINT_KEYS) if (s[key] !== undefined) pick[key] = s[key];
  return pick;
}

/** The component schema a (non-list) operation returns on success, if it names one. */
export function resourceSchemaOf(doc: Doc, raw: Json, list: ListDeclaration | null | undefined): string | undefined {
  return list ? undefined : schemaName(successSchema(doc, raw));
}

/** Request fields copied into the response: same name on both sides, with the response property's schema (the mock
 * copies a value only when it is valid for it). */
export function echoFields(doc: Doc, requestSchema: unknown, resourceSchema: string): Record<string, unknown> {
  const requestProps = requestSchema ? objectProperties(doc, requestSchema).properties : {};
  const responseProps = objectProperties(doc, schemaRef(resourceSchema)).properties;
  const echo: Record<string, unknown> = {};
  for (const k of Object.keys(requestProps)) if (k in responseProps) echo[k] = normalize(doc, responseProps[k]);
  return echo;
}

export function mockResponses(doc: Doc, raw: Json, values: ExampleValues): Json[] {
  return Object.entries((raw.responses ?? {}) as Json).map(([status, response]) => {
    const content = jsonContent(doc, response);
    // An error response is shared per status: only the examples of codes this operation lists in `x-error-codes`.
    const examples = (content ? examplesOf(doc, content.media) : []).filter((ex) => answersExample(raw, status, ex.value));
    return {
      status: Number(status),
      contentType: content?.contentType ?? null,
      headers: Object.keys((deref(doc, response).headers ?? {}) as Json),
      examples: examples.map((ex) => {
        const code = (ex.value as Json | undefined)?.code;
        const value = values.indexOf(ex.value);
        return typeof code === "string" ? { name: ex.name, code, value } : { name: ex.name, value };
      }),
    };
  });
}

export function mockData(doc: Doc, ops: SpecOperation[], lists: ReadonlyMap<string, ListDeclaration>): MockDataJson {
  const values = new ExampleValues();
  const served = ops.filter(({ op }) => op.surface !== "admin" && !op.operationId.startsWith("placeholder_"));
  const resourceOps: ResourceOperation[] = served.map((spec) => {
    const list = lists.get(spec.op.operationId);
    return { spec, resourceSchema: resourceSchemaOf(doc, spec.raw, list), itemSchema: list?.itemSchema };
  });
  const model = resourceModel(doc, resourceOps);
  const requests: MockRequestJson[] = [];
  const operations = resourceOps.map(({ spec, resourceSchema }) => {
    const { op, raw, parameters } = spec;
    const list = lists.get(op.operationId);
    const pathResources = model.pathResources.get(op.operationId) ?? {};
    const request = mockRequest(doc, spec);
    requests.push(request);
    const mock: Json = {
      operationId: op.operationId,
      method: op.method,
      path: op.pathTemplate,
      surface: op.surface,
      security: op.security,
      scopes: op.scopes,
      idempotency: op.idempotency,
      params: parameters
        .filter((p) => p.in === "path" || p.in === "query")
        .map((p) => {
          const entry: Json = { name: p.name, in: p.in, required: Boolean(p.required), schema: paramConstraints(doc, p) };
          const resource = pathResources[String(p.name)];
          if (resource) entry.resource = resource;
          return entry;
        }),
      request,
      responses: mockResponses(doc, raw, values),
    };
    const bodyRefs = model.bodyRefs.get(op.operationId);
    if (bodyRefs) mock.bodyRefs = bodyRefs;
    if (resourceSchema) {
      mock.resource = { schema: resourceSchema, echo: echoFields(doc, jsonContent(doc, raw.requestBody)?.media.schema, resourceSchema) };
    }
    if (list) mock.list = { itemSchema: list.itemSchema, pagination: list.pagination };
    return mock;
  });
  const webhooks = mockWebhooks(doc, values);
  return {
    operations,
    schemas: model.schemas,
    webhooks,
    requestSchemas: requestSchemas(doc, requests),
    scopes: allScopes(doc),
    countries: countryCodes(),
    values: values.values,
  };
}
