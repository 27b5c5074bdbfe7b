// Small hand-written spec fragments for the SDK generator's unit tests.
import type { Doc, Json, SpecOperation } from "../../../scripts/sdk-generator/spec.ts";
import { specOperations } from "../../../scripts/sdk-generator/spec.ts";

export const json = (schema: unknown, extra: Json = {}) => ({ content: { "application/json": { schema, ...extra } } });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const query = (name: string, schema: Json = { type: "integer" }) => ({ name, in: "query", schema });

/** A page of `Widget`s in `data`, with offset and cursor fields, for declarations to point at. */
export const schemas: Record<string, Json> = {
  Widget: { type: "object", required: ["id"], properties: { id: { type: "string" }, name: { type: "string" } } },
  WidgetPage: {
    type: "object",
    properties: {
      data: { type: "array", items: ref("Widget") },
      count: { type: "integer" },
      limit: { type: "integer" },
      offset: { type: "integer" },
      hasMore: { type: "boolean" },
      nextCursor: { type: ["string", "null"] },
      label: { type: "string" },
    },
  },
};

/** A spec with the given operations on the given paths (`get`, `post`, …) and the fixture schemas plus `extra`. */
export function spec(paths: Record<string, Record<string, unknown>>, extraSchemas: Record<string, Json> = {}): Doc {
  return { openapi: "3.1.0", security: [{ apiKey: [] }], paths, components: { schemas: { ...schemas, ...extraSchemas } } };
}

/** A GET list operation on /api/v2/agent/widgets answering a WidgetPage, declaring `pagination` when given. */
export function listWidgets(pagination?: unknown, parameters: Json[] = [query("limit"), query("offset"), query("after", {})]): Doc {
  const op: Json = { operationId: "listWidgets", parameters, responses: { "200": json(ref("WidgetPage")) } };
  if (pagination !== undefined) op["x-pagination"] = pagination;
  return spec({ "/api/v2/agent/widgets": { get: op } });
}

export function only(doc: Doc): SpecOperation {
  const [first] = specOperations(doc);
  if (!first) throw new Error("the fixture has no operation");
  return first;
}
