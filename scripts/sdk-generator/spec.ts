// Reading the bundled spec for the SDK generator: its operations with their resolved parameters, and the schema
// questions the tables ask (which properties an object has, which component a response returns, its examples).

import { type Operation, OperationIndex } from "../../server/spec/operations.ts";
import { deref } from "../../server/spec/resolve-ref.ts";

export { deref };

export type Json = Record<string, unknown>;
export type Doc = { paths: Record<string, Json>; components?: Json; [k: string]: unknown };

/** One operation of the spec: its index entry, its raw object, and its path-level plus own parameters resolved. */
export interface SpecOperation {
  op: Operation;
  raw: Json;
  parameters: Json[];
}

const SCHEMA_PREFIX = "#/components/schemas/";
const DOC_ONLY_KEYS = new Set(["description", "example", "examples", "title", "summary", "deprecated", "externalDocs"]);

export function specOperations(doc: Doc): SpecOperation[] {
  const index = new OperationIndex(doc as never);
  return index.all.map((op) => {
    const item = doc.paths[op.pathTemplate] as Json;
    const raw = item[op.method.toLowerCase()] as Json;
    const parameters = [...((item.parameters ?? []) as Json[]), ...((raw.parameters ?? []) as Json[])].map((p) => deref(doc, p));
    return { op, raw, parameters };
  });
}

/** The component schema name of a `$ref: '#/components/schemas/X'`, if any. */
export function schemaName(schema: unknown): string | undefined {
  const ref = (schema as Json | undefined)?.$ref;
  return typeof ref === "string" && ref.startsWith(SCHEMA_PREFIX) ? ref.slice(SCHEMA_PREFIX.length) : undefined;
}

export const schemaRef = (name: string) => ({ $ref: `${SCHEMA_PREFIX}${name}` });

/** A schema with documentation-only keywords stripped and `$ref`s resolved, for structural comparison. */
export function normalize(doc: Doc, schema: unknown, depth = 0): unknown {
  if (depth > 12) return schema;
  if (Array.isArray(schema)) return schema.map((s) => normalize(doc, s, depth + 1));
  if (!schema || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(deref(doc, schema))) if (!DOC_ONLY_KEYS.has(k)) out[k] = normalize(doc, v, depth + 1);
  return out;
}

/** Every property an object schema may carry (own, and from `allOf`/`oneOf`/`anyOf` branches); `required` counts only
 * what every instance must carry (own and `allOf`). */
export function objectProperties(doc: Doc, schema: unknown): { properties: Record<string, unknown>; required: string[] } {
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

/** The JSON media entry (`application/json`, `application/problem+json`) of a response or request body. */
export function jsonContent(doc: Doc, response: unknown): { contentType: string; media: Json } | undefined {
  const content = (deref(doc, response).content ?? {}) as Record<string, Json>;
  const entry = Object.entries(content).find(([type]) => type.includes("json"));
  return entry ? { contentType: entry[0], media: entry[1] } : undefined;
}

/** A media entry's named examples (resolved), or its single `example`. */
export function examplesOf(doc: Doc, media: Json): Array<{ name: string; value: unknown }> {
  const out: Array<{ name: string; value: unknown }> = [];
  for (const [name, ex] of Object.entries((media.examples ?? {}) as Record<string, unknown>)) {
    const value = deref(doc, ex).value;
    if (value !== undefined) out.push({ name, value });
  }
  if (out.length === 0 && media.example !== undefined) out.push({ name: "example", value: media.example });
  return out;
}

export const successStatuses = (raw: Json) =>
  Object.keys((raw.responses ?? {}) as Json)
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number);

/** The schema of the first success response with a JSON body (the one a list's `x-pagination` describes). */
export function successSchema(doc: Doc, raw: Json): unknown {
  for (const status of successStatuses(raw)) {
    const content = jsonContent(doc, (raw.responses as Json)[String(status)]);
    if (content) return content.media.schema;
  }
  return undefined;
}
