// SDK tables generated from the bundled spec (called by scripts/generate.ts; outputs under sdk/src/generated/):
// - operations.ts: per operationId its method, path, surface, Idempotency-Key rule and pagination style, plus every error
//   code the spec documents (the SDK's `CoinplaneErrorCode` union);
// - mock-data.ts: what the partner mock serves: per operation the documented examples of every status, parameter
//   constraints, and the resource model (schema, id field, fields echoed from the request) for the mock's in-memory state.
// Everything is derived from the spec: a new operation, example or error code appears here on the next `npm run generate`.
import { type Operation, OperationIndex } from "../server/spec/operations.ts";

type Json = Record<string, unknown>;
type Doc = { paths: Record<string, Json>; components?: Json; [k: string]: unknown };

const CURSOR_PARAMS = ["startingAfter", "cursor", "after", "pageToken"];
const DOC_ONLY_KEYS = new Set(["description", "example", "examples", "title", "summary", "deprecated", "externalDocs"]);

function refTarget(doc: Doc, ref: string): unknown {
  let node: unknown = doc;
  for (const part of ref.slice(2).split("/")) node = (node as Json)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node;
}

/** Resolves `$ref` chains (local refs only). */
function deref(doc: Doc, value: unknown): Json {
  let node = value as Json;
  for (let i = 0; i < 32 && node && typeof node.$ref === "string"; i++) node = refTarget(doc, node.$ref) as Json;
  return (node ?? {}) as Json;
}

/** The component schema name of a `$ref: '#/components/schemas/X'`, if any. */
function schemaName(schema: unknown): string | undefined {
  const ref = (schema as Json | undefined)?.$ref;
  return typeof ref === "string" && ref.startsWith("#/components/schemas/") ? ref.slice("#/components/schemas/".length) : undefined;
}

/** A schema with documentation-only keywords stripped and `$ref`s resolved, for structural comparison. */
function normalize(doc: Doc, schema: unknown, depth = 0): unknown {
  if (depth > 12) return schema;
  if (Array.isArray(schema)) return schema.map((s) => normalize(doc, s, depth + 1));
  if (!schema || typeof schema !== "object") return schema;
  const resolved = deref(doc, schema);
  const out: Json = {};
  for (const [k, v] of Object.entries(resolved)) if (!DOC_ONLY_KEYS.has(k)) out[k] = normalize(doc, v, depth + 1);
  return out;
}

function objectProperties(doc: Doc, schema: unknown): { properties: Record<string, unknown>; required: string[] } {
  const s = deref(doc, schema);
  const properties: Record<string, unknown> = { ...((s.properties ?? {}) as Json) };
  const required = [...((s.required ?? []) as string[])];
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    for (const branch of (s[key] ?? []) as unknown[]) {
      const inner = objectProperties(doc, branch);
      for (const [k, v] of Object.entries(inner.properties)) properties[k] ??= v;
      if (key === "allOf") required.push(...inner.required);
    }
  }
  return { properties, required };
}

interface RawOperation {
  op: Operation;
  raw: Json;
  parameters: Json[];
}

function rawOperations(doc: Doc): RawOperation[] {
  const index = new OperationIndex(doc as never);
  return index.all.map((op) => {
    const item = doc.paths[op.pathTemplate] as Json;
    const raw = item[op.method.toLowerCase()] as Json;
    const parameters = [...((item.parameters ?? []) as Json[]), ...((raw.parameters ?? []) as Json[])].map((p) => deref(doc, p));
    return { op, raw, parameters };
  });
}

function jsonContent(doc: Doc, response: unknown): { contentType: string; media: Json } | undefined {
  const content = (deref(doc, response).content ?? {}) as Record<string, Json>;
  const entry = Object.entries(content).find(([type]) => type.includes("json"));
  return entry ? { contentType: entry[0], media: entry[1] } : undefined;
}

function examplesOf(doc: Doc, media: Json): Array<{ name: string; value: unknown }> {
  const out: Array<{ name: string; value: unknown }> = [];
  for (const [name, ex] of Object.entries((media.examples ?? {}) as Record<string, unknown>)) {
    const value = deref(doc, ex).value;
    if (value !== undefined) out.push({ name, value });
  }
  if (out.length === 0 && media.example !== undefined) out.push({ name: "example", value: media.example });
  return out;
}

const successStatuses = (raw: Json) =>
  Object.keys((raw.responses ?? {}) as Json)
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number);

/** The component schema a success response returns, or the item schema of a `{ data: [...] }` list. */
function responseShape(doc: Doc, raw: Json): { schema?: string; list?: { itemSchema?: string; listSchema: Json } } {
  for (const status of successStatuses(raw)) {
    const content = jsonContent(doc, (raw.responses as Json)[String(status)]);
    if (!content) continue;
    const schema = content.media.schema;
    const resolved = deref(doc, schema);
    const data = deref(doc, ((resolved.properties ?? {}) as Json).data);
    if (data.type === "array") return { list: { itemSchema: schemaName(data.items), listSchema: resolved } };
    return { schema: schemaName(schema) };
  }
  return {};
}

function idFieldOf(doc: Doc, name: string): string | undefined {
  const { properties, required } = objectProperties(doc, { $ref: `#/components/schemas/${name}` });
  const keys = Object.keys(properties);
  if (keys.includes("id")) return "id";
  const own = `${name[0]?.toLowerCase()}${name.slice(1)}Id`;
  if (keys.includes(own)) return own;
  return keys.find((k) => k.endsWith("Id") && required.includes(k));
}

function paramConstraints(doc: Doc, p: Json) {
  const s = deref(doc, p.schema);
  const pick: Json = {};
  for (const key of ["type", "enum", "pattern", "minimum", "maximum", "minLength", "maxLength", "default"])
    if (s[key] !== undefined) pick[key] = s[key];
  return pick;
}

export interface SdkArtifacts {
  operationsTs: string;
  mockDataTs: string;
}

export function generateSdkArtifacts(doc: Doc, notice: string): SdkArtifacts {
  const ops = rawOperations(doc);
  const getByTemplate = new Map(ops.filter((o) => o.op.method === "GET").map((o) => [o.op.pathTemplate, o]));

  // --- operations.ts
  const table: Record<string, Json> = {};
  const codes = new Set<string>();
  const v1Codes = ((deref(doc, { $ref: "#/components/schemas/V1Error" }).properties as Json | undefined)?.code as Json | undefined)?.enum;
  for (const code of (v1Codes ?? []) as string[]) codes.add(code);
  for (const { op, raw, parameters } of ops) {
    const query = parameters.filter((p) => p.in === "query").map((p) => String(p.name));
    const shape = responseShape(doc, raw);
    let pagination: Json | null = null;
    if (shape.list) {
      const listProps = objectProperties(doc, shape.list.listSchema).properties;
      const cursorParam = CURSOR_PARAMS.find((c) => query.includes(c));
      if (query.includes("offset") && query.includes("limit")) pagination = { kind: "offset" };
      else if (cursorParam && "nextCursor" in listProps) pagination = { kind: "cursor", param: cursorParam };
    }
    const requestBody = raw.requestBody ? deref(doc, raw.requestBody) : undefined;
    table[op.operationId] = {
      method: op.method,
      path: op.pathTemplate,
      surface: op.surface,
      security: op.security,
      idempotency: op.idempotency,
      body: requestBody ? (requestBody.required ? "required" : "optional") : "none",
      query,
      pagination,
    };
    for (const [status, response] of Object.entries((raw.responses ?? {}) as Json)) {
      if (!/^[45]\d\d$/.test(status)) continue;
      const content = jsonContent(doc, response);
      if (!content) continue;
      for (const ex of examplesOf(doc, content.media)) {
        const code = (ex.value as Json | undefined)?.code;
        if (typeof code === "string") codes.add(code);
      }
    }
  }
  const header = `/* ${notice} */\n`;
  const operationsTs = `${header}
/** Every operation of the spec: method, path template, surface, Idempotency-Key rule and pagination style. */
export const operationTable = ${JSON.stringify(table, null, 2)} as const;

export type OperationId = keyof typeof operationTable;

/** Every error code the spec documents (v1 lower snake case, v2 upper snake case). */
export const errorCodes = ${JSON.stringify([...codes].sort(), null, 2)} as const;

export type ApiErrorCode = (typeof errorCodes)[number];
`;

  // --- mock-data.ts
  const schemas: Record<string, { idField?: string; exampleIds: string[]; creatable: boolean }> = {};
  const schemaEntry = (name: string) => {
    schemas[name] ??= { idField: idFieldOf(doc, name), exampleIds: [], creatable: false };
    return schemas[name];
  };
  const mockOps: Json[] = [];
  // Example values are stored once (error examples repeat across operations) and referenced by index.
  const values: unknown[] = [];
  const valueIndexes = new Map<string, number>();
  const valueIndex = (value: unknown) => {
    const key = JSON.stringify(value);
    let i = valueIndexes.get(key);
    if (i === undefined) {
      i = values.push(value) - 1;
      valueIndexes.set(key, i);
    }
    return i;
  };
  for (const { op, raw, parameters } of ops) {
    if (op.surface === "admin" || op.operationId.startsWith("placeholder_")) continue;
    const shape = responseShape(doc, raw);
    const responses: Json[] = [];
    for (const [status, response] of Object.entries((raw.responses ?? {}) as Json)) {
      const content = jsonContent(doc, response);
      const examples = content ? examplesOf(doc, content.media) : [];
      const headers = Object.keys((deref(doc, response).headers ?? {}) as Json);
      responses.push({
        status: Number(status),
        contentType: content?.contentType ?? null,
        headers,
        examples: examples.map((ex) => {
          const code = (ex.value as Json | undefined)?.code;
          const value = valueIndex(ex.value);
          return typeof code === "string" ? { name: ex.name, code, value } : { name: ex.name, value };
        }),
      });
    }
    const params = parameters
      .filter((p) => p.in === "path" || p.in === "query")
      .map((p) => {
        const entry: Json = { name: p.name, in: p.in, required: Boolean(p.required), schema: paramConstraints(doc, p) };
        if (p.in === "path") {
          // The resource a path parameter names: the schema returned by GET on the path up to that parameter.
          const prefix = op.pathTemplate.slice(0, op.pathTemplate.indexOf(`{${String(p.name)}}`) + String(p.name).length + 2);
          const owner = getByTemplate.get(prefix);
          const ownerSchema = owner ? responseShape(doc, owner.raw).schema : undefined;
          if (ownerSchema) {
            entry.resource = ownerSchema;
            const example = p.example ?? deref(doc, p.schema).example;
            if (typeof example === "string") schemaEntry(ownerSchema).exampleIds.push(example);
          }
        }
        return entry;
      });
    const mock: Json = {
      operationId: op.operationId,
      method: op.method,
      path: op.pathTemplate,
      surface: op.surface,
      security: op.security,
      idempotency: op.idempotency,
      params,
      responses,
    };
    const requestSchema = jsonContent(doc, raw.requestBody)?.media.schema;
    const requestProps = requestSchema ? objectProperties(doc, requestSchema).properties : {};
    if (shape.schema) {
      const entry = schemaEntry(shape.schema);
      const responseProps = objectProperties(doc, { $ref: `#/components/schemas/${shape.schema}` }).properties;
      // Request fields copied into the response: same name on both sides; the mock copies a value only when it is valid
      // for the response property's schema (checked at run time against the schema emitted here).
      const echo: Record<string, unknown> = {};
      for (const k of Object.keys(requestProps)) if (k in responseProps) echo[k] = normalize(doc, responseProps[k]);
      mock.resource = { schema: shape.schema, echo };
      const hasPathParams = parameters.some((p) => p.in === "path");
      if (op.method === "POST" && !hasPathParams && successStatuses(raw).includes(201)) entry.creatable = true;
      for (const r of responses) {
        for (const ex of r.examples as Array<{ value: number }>) {
          const id = entry.idField && (r.status as number) < 300 ? (values[ex.value] as Json | undefined)?.[entry.idField] : undefined;
          if (typeof id === "string") entry.exampleIds.push(id);
        }
      }
    }
    if (shape.list) {
      const itemSchema = shape.list.itemSchema;
      const pagination = table[op.operationId]?.pagination as Json | null;
      mock.list = { itemSchema: itemSchema ?? null, pagination: pagination ?? null };
      if (itemSchema) schemaEntry(itemSchema);
    }
    mockOps.push(mock);
  }
  for (const entry of Object.values(schemas)) entry.exampleIds = [...new Set(entry.exampleIds)].sort();
  const mockDataTs = `${header}import type { MockData } from "../mock/types.ts";

/** What the partner mock serves, derived from the spec's examples. */
export const mockData: MockData = ${JSON.stringify({ operations: mockOps, schemas, values })};
`;
  return { operationsTs, mockDataTs };
}
