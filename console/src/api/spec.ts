// The contract itself (GET /openapi.json), read once per page load: the composer's operations and forms, and the
// dashboard's metric catalogue, come from it rather than from a copy in the console.
import type { paths } from "../../../sdk/src/generated/openapi.ts";

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  description?: string;
  example?: unknown;
  default?: unknown;
  title?: string;
  format?: string;
  const?: unknown;
  pattern?: string;
};

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: Schema;
  example?: unknown;
}

export interface Operation {
  operationId: string;
  method: string;
  path: keyof paths & string;
  summary?: string;
  tags?: string[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }> };
  security?: Record<string, string[]>[];
  description?: string;
  "x-codeSamples"?: { lang: string; label?: string; source: string }[];
}

export interface Spec {
  paths: Record<string, Record<string, Operation & { parameters?: Parameter[] }>>;
  components: { schemas: Record<string, Schema>; parameters?: Record<string, Parameter> };
}

let loading: Promise<Spec> | undefined;

export function loadSpec(): Promise<Spec> {
  loading ??= fetch("/openapi.json", { credentials: "omit" }).then((r) => {
    if (!r.ok) throw new Error(`GET /openapi.json answered ${r.status}`);
    return r.json() as Promise<Spec>;
  });
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation with its method and path; the scheduler's and the operator's (admin token) ones are left out. */
export function operations(spec: Spec): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      if (schemes.length > 0 && !schemes.some((s) => s === "apiKey")) continue;
      if (path === "/healthz" || path === "/readyz") continue;
      out.push({
        ...op,
        method: method.toUpperCase(),
        path: path as Operation["path"],
        parameters: [...((item as unknown as { parameters?: Parameter[] }).parameters ?? []), ...(op.parameters ?? [])],
      });
    }
  }
  return out;
}

export function resolve(spec: Spec, schema: Schema | undefined, depth = 0): Schema {
  if (!schema) return {};
  if (schema.$ref && depth < 20) {
    const name = schema.$ref.split("/").pop() ?? "";
    const target = schema.$ref.includes("/parameters/") ? spec.components.parameters?.[name] : spec.components.schemas[name];
    return resolve(spec, { ...(target as Schema), ...{ ...schema, $ref: undefined } }, depth + 1);
  }
  if (schema.allOf) {
    const merged: Schema = { ...schema, allOf: undefined, properties: { ...schema.properties }, required: [...(schema.required ?? [])] };
    for (const part of schema.allOf) {
      const r = resolve(spec, part, depth + 1);
      Object.assign(merged.properties!, r.properties);
      merged.required!.push(...(r.required ?? []));
      merged.type ??= r.type;
    }
    return merged;
  }
  return schema;
}

export function parameter(spec: Spec, p: Parameter | { $ref: string }): Parameter {
  if ("$ref" in p) return spec.components.parameters?.[p.$ref.split("/").pop() ?? ""] as Parameter;
  return p;
}

/** The metric catalogue: the table of metric ids in getMetric's description. */
export function metricCatalogue(spec: Spec): { metricId: string; unit: string; counts: string }[] {
  const description = spec.paths["/api/metric/{metricId}"]?.get?.description ?? "";
  return [...description.matchAll(/^\|\s*`([a-z0-9_.]+)`\s*\|\s*([^|]+?)\s*\|\s*[^|]+?\|\s*([^|]+?)\s*\|$/gm)].map((m) => ({
    metricId: m[1]!,
    unit: m[2]!,
    counts: m[3]!,
  }));
}
