// What the partner mock validates a request against (mockData.request of each operation, mockData.requestSchemas): the
// operation's parameters (path, query, header) and JSON request body, as the server's validator sees them. Parameter
// schemas are resolved inline (they are small); body schemas keep their `#/components/schemas/…` references, and every
// component schema they reach is emitted once. Documentation keywords are dropped: the mock needs only what validates.
import countries from "i18n-iso-countries";
import { type Doc, deref, type Json, type SpecOperation } from "./spec.ts";

const SCHEMA_PREFIX = "#/components/schemas/";
// Keywords that document and never validate. Dropped only where a schema is expected, never from a `properties` map
// (a property may be called `description`).
const DOC_KEYWORDS = new Set(["description", "example", "examples", "title", "summary", "deprecated", "externalDocs", "discriminator"]);
// Keywords whose value is a map of names to schemas, and keywords whose value is a schema or a list of schemas.
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const SCHEMA_VALUES = new Set([
  "items",
  "prefixItems",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
]);

/** A schema without documentation keywords; `$ref`s kept (or resolved inline with `inline`). */
export function stripSchema(doc: Doc, schema: unknown, inline = false, depth = 0): unknown {
  if (depth > 40) throw new Error("schema nests too deep to strip");
  if (Array.isArray(schema)) return schema.map((s) => stripSchema(doc, s, inline, depth + 1));
  if (!schema || typeof schema !== "object") return schema;
  const source = inline ? deref(doc, schema) : (schema as Json);
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith("x-") || DOC_KEYWORDS.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && value && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, stripSchema(doc, v, inline, depth + 1)]));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = stripSchema(doc, value, inline, depth + 1);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The component schema names a schema refers to, transitively (`into` collects them). */
function collectRefs(doc: Doc, schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const s of schema) collectRefs(doc, s, into);
    return;
  }
  if (!schema || typeof schema !== "object") return;
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === "$ref" && typeof value === "string") {
      if (!value.startsWith(SCHEMA_PREFIX)) throw new Error(`request schemas may refer to component schemas only: ${value}`);
      const name = value.slice(SCHEMA_PREFIX.length);
      if (into.has(name)) continue;
      into.add(name);
      collectRefs(doc, deref(doc, { $ref: value }), into);
    } else {
      collectRefs(doc, value, into);
    }
  }
}

export interface MockRequestParamJson {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: unknown;
}

export interface MockRequestJson {
  parameters: MockRequestParamJson[];
  body?: { required: boolean; contentTypes: string[]; schema: unknown };
}

/** The parameters and body of one operation, as the mock validates them. */
export function mockRequest(doc: Doc, { raw, parameters }: SpecOperation): MockRequestJson {
  const params = parameters
    .filter((p) => p.in === "path" || p.in === "query" || p.in === "header")
    .map((p) => ({
      // Header names are matched case-insensitively: the validator sees them lower-cased, as Node delivers them.
      name: p.in === "header" ? String(p.name).toLowerCase() : String(p.name),
      in: p.in as MockRequestParamJson["in"],
      required: Boolean(p.required),
      schema: stripSchema(doc, p.schema ?? {}, true),
    }));
  const out: MockRequestJson = { parameters: params };
  if (raw.requestBody) {
    const requestBody = deref(doc, raw.requestBody);
    const content = (requestBody.content ?? {}) as Record<string, Json>;
    const contentTypes = Object.keys(content);
    const json = contentTypes.find((t) => t.includes("json"));
    if (!json) throw new Error(`request body without a JSON media type: ${contentTypes.join(", ")}`);
    out.body = { required: Boolean(requestBody.required), contentTypes, schema: stripSchema(doc, content[json]?.schema ?? {}) };
  }
  return out;
}

/** Every component schema the given request bodies reach, stripped. */
export function requestSchemas(doc: Doc, requests: MockRequestJson[]): Record<string, unknown> {
  const names = new Set<string>();
  for (const r of requests) collectRefs(doc, r.body?.schema, names);
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
  return Object.fromEntries([...names].sort().map((name) => [name, stripSchema(doc, schemas[name])]));
}

/** ISO 3166-1 alpha-2 codes, for the spec's `iso3166-alpha2` / `iso3166-region` formats (the server's list). */
export function countryCodes(): string[] {
  return Object.keys(countries.getAlpha2Codes()).sort();
}

/** Every scope an API key may hold, from the admin API's `Scope` pattern (`^(wallets|…):(read|write)$`); none without it. */
export function allScopes(doc: Doc): string[] {
  const scope = (((doc.components as Json | undefined)?.schemas ?? {}) as Json).Scope;
  if (scope === undefined) return [];
  const pattern = deref(doc, scope).pattern;
  const match = typeof pattern === "string" ? /^\^\(([a-z|]+)\):\(([a-z|]+)\)\$$/.exec(pattern) : null;
  if (!match) throw new Error(`the Scope schema's pattern is not (resources):(levels): ${String(pattern)}`);
  const [resources, levels] = [(match[1] as string).split("|"), (match[2] as string).split("|")];
  return resources.flatMap((r) => levels.map((l) => `${r}:${l}`));
}
