// Request validation as the server does it (server/middleware/openapi-validator.ts: its strict integer query check, then
// express-openapi-validator), with the same steps in the same order and the same answers:
//   1. an integer query parameter that is not a plain decimal integer → /query/<name> "must be a decimal integer";
//   2. a body of another media type (or none where one is required) → 415;
//   3. an unknown or empty query parameter → /query/<name>;
//   4. parameters (query, headers, path: coerced from text) then the body against the operation's schemas, first error
//      of each; paths as the server writes them (`/body/amount`, `/params/id`, `/headers/idempotency-key`; a missing or
//      unknown property is named in the path).
// A missing required Idempotency-Key is IDEMPOTENCY_KEY_REQUIRED, anything else VALIDATION_ERROR with `errors`.
import { createAjv, type ErrorObject, type ValidateFunction } from "./json-schema.ts";
import type { MockData, MockJsonSchema, MockOperationSpec } from "./types.ts";

export interface FieldError {
  path: string;
  message: string;
}

export type RequestProblem =
  | { code: "VALIDATION_ERROR"; message: string; errors: FieldError[] }
  | { code: "IDEMPOTENCY_KEY_REQUIRED"; message: string }
  | { code: "UNSUPPORTED_MEDIA_TYPE"; message: string };

export interface RequestParts {
  params: Record<string, string>;
  query: URLSearchParams;
  header(name: string): string | undefined;
  /** The parsed JSON body; undefined when none was sent or it was not JSON. */
  body: unknown;
  contentType: string | undefined;
}

const SPEC_ID = "coinplane-mock-requests";
const DECIMAL_INTEGER = /^-?[0-9]{1,16}$/;

const validationError = (errors: FieldError[]): RequestProblem => ({
  code: "VALIDATION_ERROR",
  message: errors.map((e) => `${e.path} ${e.message}`).join("; ") || "The request is invalid",
  errors,
});

/** ajv's errors as express-openapi-validator reports them: allowed values listed, the missing or unknown property in the
 * path. */
function fieldErrors(errors: ErrorObject[]): FieldError[] {
  return errors.map((e) => {
    const params = e.params as {
      allowedValues?: unknown[];
      missingProperty?: string;
      additionalProperty?: string;
      unevaluatedProperty?: string;
    };
    const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    const message =
      e.keyword === "enum" && params.allowedValues ? `${e.message}: ${params.allowedValues.join(", ")}` : (e.message ?? "is invalid");
    return { path: named !== undefined ? `${e.instancePath}/${named}` : e.instancePath, message };
  });
}

/** `application/json; charset=utf-8` → `application/json`. */
const mediaType = (contentType: string | undefined) => contentType?.split(";")[0]?.trim().toLowerCase() || undefined;

export class RequestValidator {
  private readonly general;
  private readonly body;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(data: MockData) {
    // One document holds every operation's two root schemas and the component schemas their `$ref`s name, so
    // `#/components/schemas/…` resolves; each root is compiled the first time a request of its operation arrives.
    const operations: Record<string, { general: MockJsonSchema; body: MockJsonSchema }> = {};
    for (const op of data.operations) operations[op.operationId] = this.roots(op);
    const doc = { $id: SPEC_ID, components: { schemas: data.requestSchemas }, operations };
    this.general = createAjv({ coerce: true, countries: data.countries });
    this.body = createAjv({ coerce: false, countries: data.countries });
    this.general.addSchema(doc);
    this.body.addSchema(structuredClone(doc));
  }

  /** The validator's two roots: parameters (coerced) and body (not coerced), shaped as `{query, headers, params, body}`. */
  private roots(op: MockOperationSpec): { general: MockJsonSchema; body: MockJsonSchema } {
    const groups: Record<string, MockJsonSchema> = { query: {}, headers: {}, params: {} };
    const groupOf = { query: "query", header: "headers", path: "params" } as const;
    for (const p of op.request.parameters) {
      const key = groupOf[p.in];
      const group = (groups[key] as { properties?: Record<string, MockJsonSchema>; required?: string[] }) ?? {};
      if (!group.properties) Object.assign(group, { type: "object", properties: {} });
      (group.properties as Record<string, MockJsonSchema>)[p.name] = p.schema;
      if (p.required) group.required = [...(group.required ?? []), p.name];
      groups[key] = group as MockJsonSchema;
    }
    const general = { required: ["query", "headers", "params"], properties: { ...groups, cookies: {}, body: {} } };
    const bodySchema = op.request.body?.schema ?? {};
    const body: MockJsonSchema = { properties: { query: {}, headers: {}, params: {}, cookies: {}, body: bodySchema } };
    if (op.request.body?.required) body.required = ["body"];
    return { general, body };
  }

  private validator(ajv: typeof this.general, operationId: string, part: "general" | "body"): ValidateFunction {
    const key = `${operationId}/${part}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = ajv.getSchema(`${SPEC_ID}#/operations/${key}`);
      if (!validate) throw new Error(`no request schema for ${key}`);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** The server's answer to an invalid request of `op`, or null when it passes validation. */
  validate(op: MockOperationSpec, parts: RequestParts): RequestProblem | null {
    const queryParams = op.request.parameters.filter((p) => p.in === "query");

    // 1. Integer query parameters: plain decimal integers only (Number() would read `Infinity` or `0x10`).
    for (const p of queryParams) {
      if (p.schema.type !== "integer" || !parts.query.has(p.name)) continue;
      const values = parts.query.getAll(p.name);
      if (values.length !== 1 || !DECIMAL_INTEGER.test(values[0] as string)) {
        return validationError([{ path: `/query/${p.name}`, message: "must be a decimal integer" }]);
      }
    }

    // 2. The body's media type.
    const body = op.request.body;
    const media = mediaType(parts.contentType);
    if (body && !(media && body.contentTypes.some((t) => mediaType(t) === media)) && (media !== undefined || body.required)) {
      return { code: "UNSUPPORTED_MEDIA_TYPE", message: "Send the body as application/json" };
    }

    // 3. Unknown and empty query parameters.
    const known = new Set(queryParams.map((p) => p.name));
    for (const name of new Set(parts.query.keys())) {
      if (!known.has(name)) return validationError([{ path: `/query/${name}`, message: `Unknown query parameter '${name}'` }]);
      if (parts.query.get(name) === "") {
        return validationError([{ path: `/query/${name}`, message: `Empty value found for query parameter '${name}'` }]);
      }
    }

    // 4. Schemas.
    const query: Record<string, unknown> = {};
    for (const name of known) {
      const values = parts.query.getAll(name);
      if (values.length === 0) continue;
      const isArray = queryParams.find((p) => p.name === name)?.schema.type === "array";
      query[name] = isArray || values.length > 1 ? values : values[0];
    }
    const headers: Record<string, string> = {};
    for (const p of op.request.parameters) {
      if (p.in !== "header") continue;
      const value = parts.header(p.name);
      if (value !== undefined) headers[p.name] = value;
    }
    const data = { query, headers, params: { ...parts.params }, cookies: undefined, body: structuredClone(parts.body) };
    const general = this.validator(this.general, op.operationId, "general");
    const bodyCheck = this.validator(this.body, op.operationId, "body");
    const generalValid = general(data);
    const generalErrors = general.errors ? [...general.errors] : [];
    const bodyValid = bodyCheck(data);
    if (generalValid && bodyValid) return null;
    const errors = fieldErrors([...generalErrors, ...(bodyValid ? [] : (bodyCheck.errors ?? []))]);
    if (errors.some((e) => e.path === "/headers/idempotency-key" && /required/.test(e.message))) {
      return { code: "IDEMPOTENCY_KEY_REQUIRED", message: "This operation requires an Idempotency-Key header" };
    }
    return validationError(errors);
  }
}
