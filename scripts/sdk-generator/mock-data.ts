// What the partner mock serves (sdk/src/generated/mock-data.ts): per operation the documented examples of every status,
// parameter constraints, and the resource model (schema, id field, fields echoed from the request) for its in-memory state.
// Admin operations and placeholders are not part of the partner surface and are left out.
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
  successStatuses,
} from "./spec.ts";
import { type MockWebhookJson, mockWebhooks } from "./webhook-events.ts";

export interface MockSchema {
  idField?: string;
  exampleIds: string[];
  creatable: boolean;
}

export interface MockDataJson {
  operations: Json[];
  schemas: Record<string, MockSchema>;
  webhooks: MockWebhookJson[];
  values: unknown[];
}

const CONSTRAINT_KEYS = ["type", "enum", "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "default"];

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

/** The field that identifies a resource: `id`, else `<schemaName>Id`, else the first required `…Id` property. */
export function idFieldOf(doc: Doc, name: string): string | undefined {
  const { properties, required } = objectProperties(doc, schemaRef(name));
  const keys = Object.keys(properties);
  if (keys.includes("id")) return "id";
  const own = `${name[0]?.toLowerCase()}${name.slice(1)}Id`;
  if (keys.includes(own)) return own;
  return keys.find((k) => k.endsWith("Id") && required.includes(k));
}

/** The validation keywords of a parameter's schema the mock checks. */
export function paramConstraints(doc: Doc, p: Json): Json {
  const s = deref(doc, p.schema);
  const pick: Json = {};
  for (const key of CONSTRAINT_KEYS) if (s[key] !== undefined) pick[key] = s[key];
  // An array parameter (`?type=a&type=b`): its items' schema, refs resolved.
  if (s.items !== undefined) pick.items = normalize(doc, s.items);
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
    const examples = content ? examplesOf(doc, content.media) : [];
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

/** Builds the mock data; `schemas` collects every resource schema met, in the order first met. */
class MockDataBuilder {
  readonly schemas: Record<string, MockSchema> = {};
  readonly values = new ExampleValues();
  private readonly getByTemplate: Map<string, SpecOperation>;

  constructor(
    private readonly doc: Doc,
    ops: SpecOperation[],
    private readonly lists: ReadonlyMap<string, ListDeclaration>,
  ) {
    this.getByTemplate = new Map(ops.filter((o) => o.op.method === "GET").map((o) => [o.op.pathTemplate, o]));
  }

  schema(name: string): MockSchema {
    this.schemas[name] ??= { idField: idFieldOf(this.doc, name), exampleIds: [], creatable: false };
    return this.schemas[name];
  }

  /** Path and query parameters; a path parameter names the resource GET on the path up to it returns. */
  params({ op, parameters }: SpecOperation): Json[] {
    return parameters
      .filter((p) => p.in === "path" || p.in === "query")
      .map((p) => {
        const entry: Json = { name: p.name, in: p.in, required: Boolean(p.required), schema: paramConstraints(this.doc, p) };
        if (p.in !== "path") return entry;
        const name = String(p.name);
        const prefix = op.pathTemplate.slice(0, op.pathTemplate.indexOf(`{${name}}`) + name.length + 2);
        const owner = this.getByTemplate.get(prefix);
        const ownerSchema = owner && resourceSchemaOf(this.doc, owner.raw, this.lists.get(owner.op.operationId));
        if (ownerSchema) {
          entry.resource = ownerSchema;
          const example = p.example ?? deref(this.doc, p.schema).example;
          if (typeof example === "string") this.schema(ownerSchema).exampleIds.push(example);
        }
        return entry;
      });
  }

  operation(o: SpecOperation): Json {
    const { op, raw, parameters } = o;
    const list = this.lists.get(op.operationId);
    const responses = mockResponses(this.doc, raw, this.values);
    const mock: Json = {
      operationId: op.operationId,
      method: op.method,
      path: op.pathTemplate,
      surface: op.surface,
      security: op.security,
      idempotency: op.idempotency,
      params: this.params(o),
      responses,
    };
    const resourceSchema = resourceSchemaOf(this.doc, raw, list);
    if (resourceSchema) {
      const entry = this.schema(resourceSchema);
      mock.resource = {
        schema: resourceSchema,
        echo: echoFields(this.doc, jsonContent(this.doc, raw.requestBody)?.media.schema, resourceSchema),
      };
      const hasPathParams = parameters.some((p) => p.in === "path");
      if (op.method === "POST" && !hasPathParams && successStatuses(raw).includes(201)) entry.creatable = true;
      for (const r of responses) {
        if ((r.status as number) >= 300 || !entry.idField) continue;
        for (const ex of r.examples as Array<{ value: number }>) {
          const id = (this.values.values[ex.value] as Json | undefined)?.[entry.idField];
          if (typeof id === "string") entry.exampleIds.push(id);
        }
      }
    }
    if (list) {
      mock.list = { itemSchema: list.itemSchema, pagination: list.pagination };
      if (list.itemSchema) this.schema(list.itemSchema);
    }
    return mock;
  }
}

export function mockData(doc: Doc, ops: SpecOperation[], lists: ReadonlyMap<string, ListDeclaration>): MockDataJson {
  const builder = new MockDataBuilder(doc, ops, lists);
  const operations = ops
    .filter(({ op }) => op.surface !== "admin" && !op.operationId.startsWith("placeholder_"))
    .map((o) => builder.operation(o));
  for (const entry of Object.values(builder.schemas)) entry.exampleIds = [...new Set(entry.exampleIds)].sort();
  const webhooks = mockWebhooks(doc, builder.values);
  return { operations, schemas: builder.schemas, webhooks, values: builder.values.values };
}
