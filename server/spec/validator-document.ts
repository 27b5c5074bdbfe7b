// The part of the spec express-openapi-validator needs. At start it bundles the whole document with
// json-schema-ref-parser and walks every request and response schema (≈1 s of CPU of a 3 s restart on the 2-core
// machine, most of it on examples, code samples, prose and response schemas): it gets a copy without what cannot change
// a validation — annotations (descriptions, summaries, examples, code samples) and, unless responses are validated,
// the response bodies and headers. Keys inside `properties` are field names, never annotations, and are kept.
import type { OpenApiDocument } from "./load-spec.ts";

const ANNOTATIONS = new Set(["description", "summary", "example", "examples", "x-codeSamples", "externalDocs"]);

export function validatorDocument(spec: OpenApiDocument, validateResponses: boolean): OpenApiDocument {
  const copy = strip(spec, false) as OpenApiDocument;
  if (!validateResponses) withoutResponseBodies(copy);
  return copy;
}

function strip(value: unknown, fieldNames: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, false));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!fieldNames && ANNOTATIONS.has(key)) continue;
    // The children of `properties` (and `patternProperties`) are field names: a field called "description" stays.
    out[key] = strip(child, !fieldNames && (key === "properties" || key === "patternProperties"));
  }
  return out;
}

/** Every response keeps its status (and an empty description, which OpenAPI requires) but no body or headers. */
function withoutResponseBodies(spec: OpenApiDocument): void {
  const bare = (responses: Record<string, unknown>) => {
    for (const status of Object.keys(responses)) responses[status] = { description: "" };
  };
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Record<string, unknown> } | undefined)?.responses;
      if (responses && typeof responses === "object") bare(responses);
    }
  }
  const components = spec.components as { responses?: Record<string, unknown>; headers?: unknown } | undefined;
  if (components?.responses) bare(components.responses);
  if (components) delete components.headers;
}
