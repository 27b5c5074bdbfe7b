// Builds, from the bundled spec alone, a request for any operation that passes request validation: path parameters
// from their pattern (or example), required query parameters, the first request-body example, an Idempotency-Key.
import { randomUUID } from "node:crypto";
import { loadSpec, type OpenApiDocument } from "../../server/spec/load-spec.ts";
import { type Operation, OperationIndex } from "../../server/spec/operations.ts";

export const NOT_IMPLEMENTED_MARKER = "**Not implemented yet:**";

type Json = Record<string, unknown>;

export interface SpecOperation {
  operation: Operation;
  /** The operation object of the spec. */
  raw: Json;
  /** Parameters of the path item and the operation, `$ref`s resolved. */
  parameters: Json[];
}

export interface SpecRequest {
  method: string;
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

function resolve(doc: OpenApiDocument, value: Json): Json {
  const ref = value.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return value;
  let node: unknown = doc;
  for (const part of ref.slice(2).split("/")) node = (node as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return resolve(doc, node as Json);
}

export function specOperations(doc: OpenApiDocument = loadSpec()): SpecOperation[] {
  return new OperationIndex(doc).all.map((operation) => {
    const item = doc.paths[operation.pathTemplate] as Json;
    const raw = item[operation.method.toLowerCase()] as Json;
    const parameters = [...((item.parameters ?? []) as Json[]), ...((raw.parameters ?? []) as Json[])].map((p) => resolve(doc, p));
    return { operation, raw, parameters };
  });
}

export const isMarkedNotImplemented = (op: SpecOperation) => String(op.raw.description ?? "").startsWith(NOT_IMPLEMENTED_MARKER);

/** A path slot reserved for work in progress: its only documented response is 501. */
export const isPlaceholder = (op: SpecOperation) => {
  const codes = Object.keys((op.raw.responses ?? {}) as Json);
  return codes.length === 1 && codes[0] === "501";
};

/** A value for a parameter: `<literal prefix of the pattern>abc` (e.g. `card_abc`), else its example, else `abc`. */
export function parameterValue(doc: OpenApiDocument, parameter: Json): string {
  const schema = resolve(doc, (parameter.schema ?? {}) as Json);
  const pattern = typeof schema.pattern === "string" ? new RegExp(schema.pattern) : undefined;
  const prefix = typeof schema.pattern === "string" ? /^\^([A-Za-z0-9_-]*)/.exec(schema.pattern)?.[1] : undefined;
  const candidates = [prefix !== undefined ? `${prefix}abc` : undefined, parameter.example, schema.example, "abc"];
  for (const candidate of candidates) {
    if (typeof candidate !== "string" && typeof candidate !== "number") continue;
    const text = String(candidate);
    if (pattern && !pattern.test(text)) continue;
    if (typeof schema.minLength === "number" && text.length < schema.minLength) continue;
    return text;
  }
  throw new Error(`no value found for parameter ${String(parameter.name)}`);
}

/** The first request-body example, with `organizationId` (when present) set to the caller's organization. */
export function exampleBody(op: SpecOperation, organizationId?: string): unknown {
  const content = (op.raw.requestBody as Json | undefined)?.content as Json | undefined;
  const media = content?.["application/json"] as Json | undefined;
  if (!media) return undefined;
  const examples = media.examples as Record<string, Json> | undefined;
  const value = examples ? Object.values(examples)[0]?.value : media.example;
  if (value === undefined) throw new Error(`${op.operation.operationId} has a request body but no example`);
  const body = structuredClone(value) as Json;
  if (organizationId !== undefined && body && typeof body === "object" && "organizationId" in body) body.organizationId = organizationId;
  return body;
}

export function exampleRequest(doc: OpenApiDocument, op: SpecOperation, organizationId?: string): SpecRequest {
  let path = op.operation.pathTemplate;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of op.parameters) {
    if (parameter.in === "path") path = path.replace(`{${String(parameter.name)}}`, encodeURIComponent(parameterValue(doc, parameter)));
    else if (parameter.in === "query" && parameter.required) query.set(String(parameter.name), parameterValue(doc, parameter));
    else if (parameter.in === "header" && String(parameter.name).toLowerCase() === "idempotency-key")
      headers["idempotency-key"] = randomUUID();
  }
  const search = query.toString();
  return {
    method: op.operation.method,
    path: search ? `${path}?${search}` : path,
    body: exampleBody(op, organizationId),
    headers,
  };
}
