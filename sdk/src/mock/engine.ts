// The partner mock's logic, independent of any HTTP library: routes a request to an operation of the spec, answers with
// the spec's documented examples, and keeps a small in-memory state (created resources are returned by later reads and
// lists, actions update them, Idempotency-Keys replay). Used by the msw handlers and the standalone server alike.
//
// Errors on request — documented in docs/getting-started.md and the SDK README:
//   X-Mock-Error: <CODE>     the operation's documented example with that code (e.g. PROVIDER_NOT_CONNECTED, rate_limited)
//   X-Mock-Status: <status>  the operation's first documented example for that status (e.g. 424)
//   X-Mock-Example: <name>   a named success example (e.g. `firstPageOfTwo`)
// and, as the real API: no bearer key → 401; a production key on /api/v1 → 403; a missing required Idempotency-Key → 400;
// the same key with another body → 422; an unknown id of a resource the mock creates → 404.
import { mockData as generatedData } from "../generated/mock-data.ts";
import { conforms } from "./mini-schema.ts";
import type { MockData, MockOperationSpec, MockResponseSpec } from "./types.ts";

export interface MockRequest {
  method: string;
  /** Absolute URL or path with query. */
  url: string;
  headers: Headers | Record<string, string | undefined>;
  /** Parsed JSON body (undefined when none). */
  body?: unknown;
  /** The body was sent but is not JSON (→ 400). */
  invalidJson?: boolean;
}

export interface MockResult {
  status: number;
  headers: Record<string, string>;
  /** JSON body, undefined for a response without one. */
  body: unknown;
  /** The operation that answered (undefined for unknown routes). */
  operationId?: string;
}

export interface MockEngineOptions {
  data?: MockData;
  now?: () => Date;
  random?: () => number;
}

interface CompiledOperation {
  spec: MockOperationSpec;
  regex: RegExp;
  paramNames: string[];
}

interface Stored {
  value: Record<string, unknown>;
  /** Fields that identify the resource and came from its creation; kept when an action answers with another example. */
  identity: string[];
}

type Json = Record<string, unknown>;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const GENERIC_V1_CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  429: "rate_limited",
  500: "internal_error",
  503: "service_unavailable",
};

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const lcFirst = (s: string) => `${s[0]?.toLowerCase() ?? ""}${s.slice(1)}`;

function header(headers: MockRequest["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | undefined>)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/** Canonical JSON (sorted keys) for idempotency fingerprints. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export class MockEngine {
  readonly data: MockData;
  private readonly operations: CompiledOperation[];
  private readonly now: () => Date;
  private readonly random: () => number;
  private state = new Map<string, Map<string, Stored>>();
  private idempotency = new Map<string, { fingerprint: string; result: MockResult }>();

  constructor(options: MockEngineOptions = {}) {
    this.data = options.data ?? generatedData;
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.operations = this.data.operations
      .map((spec) => {
        const paramNames: string[] = [];
        const pattern = spec.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
          paramNames.push(name);
          return "([^/]+)";
        });
        return { spec, regex: new RegExp(`^${pattern}/?$`), paramNames };
      })
      // Literal segments win over parameters: /cards/issue before /cards/{cardId}.
      .sort((a, b) => a.paramNames.length - b.paramNames.length);
  }

  /** Forgets every created resource and idempotency record. */
  reset(): void {
    this.state = new Map();
    this.idempotency = new Map();
  }

  /** Every operation the mock serves (method, path template, operationId). */
  get routes(): Array<Pick<MockOperationSpec, "operationId" | "method" | "path">> {
    return this.data.operations.map(({ operationId, method, path }) => ({ operationId, method, path }));
  }

  /** The operation a method and path belong to, with its path parameters; else the methods the path allows (405) or none (404). */
  match(method: string, pathname: string): { operationId: string; params: Record<string, string> } | { allowed: string[] } {
    const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
    const allowed: string[] = [];
    for (const op of this.operations) {
      const m = op.regex.exec(pathname);
      if (!m) continue;
      if (op.spec.method !== wanted) {
        allowed.push(op.spec.method);
        continue;
      }
      const params: Record<string, string> = {};
      op.paramNames.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1] as string);
      });
      return { operationId: op.spec.operationId, params };
    }
    return { allowed };
  }

  /** Routes and answers one request. */
  handle(request: MockRequest): MockResult {
    const url = new URL(request.url, "http://mock.invalid");
    const method = request.method.toUpperCase();
    const route = this.match(method, url.pathname);
    if ("operationId" in route) return this.handleOperation(route.operationId, route.params, request);
    const allowed = route.allowed.length ? route.allowed : undefined;
    const requestId = this.requestId(request);
    const v2 = url.pathname.startsWith("/api/v2/");
    const status = allowed ? 405 : 404;
    const message = allowed ? `${method} is not allowed on this path` : "No such route";
    const body = v2
      ? {
          type: `https://docs.coinplane.dev/errors/${allowed ? "method_not_allowed" : "not_found"}`,
          title: allowed ? "Method not allowed" : "Not found",
          status,
          detail: message,
          instance: url.pathname,
          code: allowed ? "METHOD_NOT_ALLOWED" : "NOT_FOUND",
          requestId,
        }
      : { error: message, code: allowed ? "method_not_allowed" : "not_found", requestId };
    const headers: Record<string, string> = {
      "content-type": v2 ? "application/problem+json" : "application/json",
      "x-request-id": requestId,
    };
    if (allowed) headers.allow = allowed.join(", ");
    return { status, headers, body };
  }

  /** Answers a request already routed to `operationId` (the msw handlers route by themselves). */
  handleOperation(operationId: string, params: Record<string, string>, request: MockRequest): MockResult {
    const op = this.data.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`unknown operation ${operationId}`);
    const url = new URL(request.url, "http://mock.invalid");
    const requestId = this.requestId(request);
    const fail = (select: { status?: number; code?: string }, detail?: string) => this.error(op, select, requestId, url.pathname, detail);

    // Authentication, as the API does it.
    const token = /^Bearer\s+(\S+)$/i.exec(header(request.headers, "authorization") ?? "")?.[1];
    if (op.security === "apiKey" && !token) return fail({ status: 401, code: "unauthorized" });
    if (op.security === "schedulerSecret" && !header(request.headers, "x-scheduler-secret"))
      return fail({ status: 401, code: "unauthorized" });
    if (op.surface === "v1" && token?.startsWith("cp_production_"))
      return fail({ status: 403, code: "forbidden" }, "This endpoint is sandbox-only; use a sandbox API key");

    // Errors on request.
    const forcedCode = header(request.headers, "x-mock-error");
    const forcedStatus = header(request.headers, "x-mock-status");
    if (forcedCode || forcedStatus) {
      const status = forcedStatus ? Number(forcedStatus) : undefined;
      const found = this.findError(op, { status, code: forcedCode });
      if (found) return fail({ status: found.status, code: forcedCode });
      const documented = op.responses.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.examples.map((e) => e.code).join("/")}`);
      return fail(
        { status: 400 },
        `X-Mock-${forcedCode ? `Error ${forcedCode}` : `Status ${forcedStatus}`} is not documented for ${op.operationId}; documented: ${documented.join(", ")}`,
      );
    }

    if (request.invalidJson) return fail({ status: 400 }, "The request body is not valid JSON");

    // Parameters.
    for (const p of op.params) {
      const repeated = p.in === "query" && p.schema.type === "array" ? url.searchParams.getAll(p.name) : undefined;
      const raw = p.in === "path" ? params[p.name] : (url.searchParams.get(p.name) ?? undefined);
      if (raw === undefined) {
        if (p.required) return fail({ status: 400 }, `${p.in} parameter ${p.name} is required`);
        continue;
      }
      const value = repeated ?? (p.schema.type === "integer" || p.schema.type === "number" ? Number(raw) : raw);
      if (!conforms(p.schema as Json, value) || (p.schema.type === "integer" && !Number.isInteger(value))) {
        return fail({ status: 400 }, `${p.in} parameter ${p.name} is invalid`);
      }
    }

    // Idempotency.
    const key = header(request.headers, "idempotency-key");
    if (op.idempotency === "required" && !key) return fail({ status: 400, code: "idempotency_key_required" });
    const idemKey = key && op.idempotency !== "none" ? `${token ?? ""}\u0000${key}` : undefined;
    const fingerprint = `${op.method} ${url.pathname}\u0000${canonical(request.body ?? null)}`;
    if (idemKey) {
      const previous = this.idempotency.get(idemKey);
      if (previous && previous.fingerprint !== fingerprint) return fail({ status: 422, code: "idempotency_key_reused" });
      if (previous) {
        return {
          ...previous.result,
          body: clone(previous.result.body),
          headers: { ...previous.result.headers, "idempotent-replayed": "true" },
        };
      }
    }

    const result = this.success(op, params, url, request, requestId);
    if (idemKey && result.status < 300) this.idempotency.set(idemKey, { fingerprint, result: { ...result, body: clone(result.body) } });
    return result;
  }

  private success(op: MockOperationSpec, params: Record<string, string>, url: URL, request: MockRequest, requestId: string): MockResult {
    const fail = (select: { status?: number; code?: string }, detail?: string) => this.error(op, select, requestId, url.pathname, detail);
    const body = isObject(request.body) ? request.body : {};
    const resourceSchema = op.resource?.schema;
    const idField = resourceSchema ? this.data.schemas[resourceSchema]?.idField : undefined;

    // The resource the request refers to: by the last path parameter that names one, else by an id field in the body.
    let stored: Stored | undefined;
    let referenced = false;
    const pathParam = [...op.params].reverse().find((p) => p.in === "path" && p.resource);
    if (pathParam?.resource) {
      const value = params[pathParam.name] as string;
      const schema = this.data.schemas[pathParam.resource];
      referenced = true;
      if (pathParam.resource === resourceSchema || op.list) stored = this.state.get(pathParam.resource)?.get(value);
      const known = this.state.get(pathParam.resource)?.has(value) || schema?.exampleIds.includes(value);
      if (!known && schema?.creatable && this.findError(op, { status: 404 })) return fail({ status: 404, code: "not_found" });
    } else if (resourceSchema && idField && typeof body[idField] === "string") {
      referenced = true;
      stored = this.state.get(resourceSchema)?.get(body[idField] as string);
    }

    const successes = op.responses.filter((r) => r.status >= 200 && r.status < 300);
    const preferred = referenced ? 200 : 201;
    const response = successes.find((r) => r.status === preferred) ?? successes[0];
    if (!response) return fail({ status: 500 });
    const exampleName = header(request.headers, "x-mock-example");
    const example = response.examples.find((e) => e.name === exampleName) ?? response.examples[0];
    let value = clone(example ? this.data.values[example.value] : undefined);
    const now = this.now().toISOString();

    if (op.list && isObject(value)) {
      value = this.list(op, value, url);
    } else if (isObject(value) && resourceSchema) {
      if (op.method === "GET" && stored) {
        value = clone(stored.value);
      } else {
        const isAction = stored !== undefined;
        if (stored) for (const k of stored.identity) if (k in stored.value) value[k] = clone(stored.value[k]);
        const echoed: string[] = [];
        for (const [k, schema] of Object.entries(op.resource?.echo ?? {})) {
          if (k in body && conforms(schema, body[k])) {
            value[k] = clone(body[k]);
            echoed.push(k);
          }
        }
        this.substituteParams(op, params, url, value);
        if (!isAction && !referenced && op.method === "POST" && idField && typeof value[idField] === "string") {
          value[idField] = this.freshId(value[idField] as string);
          if (typeof value.createdAt === "string") value.createdAt = now;
        }
        if (typeof value.updatedAt === "string") value.updatedAt = now;
        if (isAction && typeof stored?.value.version === "number" && typeof value.version === "number")
          value.version = stored.value.version + 1;
        if (idField && typeof value[idField] === "string") {
          const identity = stored?.identity ?? [idField, ...echoed, "createdAt"];
          this.store(resourceSchema, value[idField] as string, { value: clone(value), identity });
        }
      }
    } else if (isObject(value)) {
      this.substituteParams(op, params, url, value);
    }
    return { status: response.status, headers: this.headers(op, response, requestId), body: value, operationId: op.operationId };
  }

  private list(op: MockOperationSpec, envelope: Json, url: URL): Json {
    const itemSchema = op.list?.itemSchema;
    const schema = itemSchema ? this.data.schemas[itemSchema] : undefined;
    const hasPathParams = op.params.some((p) => p.in === "path");
    // Lists of resources the mock creates are served from its state; other lists keep their example.
    if (!itemSchema || !schema?.creatable || hasPathParams) return envelope;
    const items = [...(this.state.get(itemSchema)?.values() ?? [])].reverse().map((s) => clone(s.value));
    const pagination = op.list?.pagination;
    if (!pagination) return envelope;
    const setIfPresent = (field: string | undefined, value: unknown) => {
      if (field !== undefined && field in envelope) envelope[field] = value;
    };
    if (pagination.kind === "none") {
      envelope[pagination.items] = items;
      setIfPresent(pagination.total, items.length);
      return envelope;
    }
    const limitParam = op.params.find((p) => p.name === pagination.limitParam);
    const limit = Number((limitParam && url.searchParams.get(limitParam.name)) ?? limitParam?.schema.default ?? items.length);
    if (pagination.kind === "offset") {
      const offset = Number(url.searchParams.get(pagination.offsetParam) ?? 0);
      envelope[pagination.items] = items.slice(offset, offset + limit);
      setIfPresent(pagination.total, items.length);
      // The page's echo of its size and position (v1 lists carry both under the parameters' names).
      setIfPresent(pagination.limitParam, limit);
      setIfPresent(pagination.offsetParam, offset);
    } else {
      const cursor = url.searchParams.get(pagination.param);
      const idField = schema.idField ?? "id";
      const start = cursor ? items.findIndex((i) => i[idField] === cursor) + 1 : 0;
      const page = items.slice(start, start + limit);
      const hasMore = start + limit < items.length;
      envelope[pagination.items] = page;
      if (pagination.hasMore !== undefined) envelope[pagination.hasMore] = hasMore;
      envelope[pagination.nextCursor] = hasMore ? (page[page.length - 1]?.[idField] ?? null) : null;
    }
    return envelope;
  }

  /** Path parameters (and, on reads, query parameters) replace the example's fields of the same name. */
  private substituteParams(op: MockOperationSpec, params: Record<string, string>, url: URL, value: Json): void {
    for (const p of op.params) {
      if (p.in === "path") {
        const v = params[p.name];
        const names = [p.name];
        if (p.resource && p.resource !== op.resource?.schema) names.push(`${lcFirst(p.resource)}Id`);
        for (const n of names) if (typeof value[n] === "string" && v !== undefined) value[n] = v;
      } else if (op.method === "GET") {
        const v = url.searchParams.get(p.name);
        if (v !== null && typeof value[p.name] === "string") value[p.name] = v;
      }
    }
  }

  private store(schema: string, id: string, entry: Stored): void {
    let byId = this.state.get(schema);
    if (!byId) {
      byId = new Map();
      this.state.set(schema, byId);
    }
    byId.delete(id);
    byId.set(id, entry);
  }

  /** A new id in the example's format: same prefix, same length. */
  private freshId(example: string): string {
    const underscore = example.lastIndexOf("_");
    const prefix = underscore >= 0 ? example.slice(0, underscore + 1) : "";
    const length = Math.max(8, example.length - prefix.length);
    let out = "";
    for (let i = 0; i < length; i++) out += BASE62[Math.floor(this.random() * 62)];
    return prefix + out;
  }

  private requestId(request: MockRequest): string {
    const given = header(request.headers, "x-request-id");
    if (given && REQUEST_ID.test(given)) return given;
    return `req_${this.freshId("req_01JD6Z3W3F7K9Q2V8X4M5N6P7R").slice(4)}`;
  }

  private findError(op: MockOperationSpec, select: { status?: number; code?: string }): MockResponseSpec | undefined {
    const errors = op.responses.filter((r) => r.status >= 400);
    const code = select.code?.toLowerCase();
    return errors.find(
      (r) =>
        (select.status === undefined || r.status === select.status) &&
        (code === undefined || r.examples.some((e) => e.code?.toLowerCase() === code)),
    );
  }

  private error(
    op: MockOperationSpec,
    select: { status?: number; code?: string },
    requestId: string,
    path: string,
    detail?: string,
  ): MockResult {
    const response =
      this.findError(op, select) ??
      this.findError(op, { status: select.status }) ??
      this.findError(op, { status: 400 }) ??
      op.responses.find((r) => r.status >= 400);
    const status = response?.status ?? select.status ?? 400;
    const code = select.code?.toLowerCase();
    const example = response?.examples.find((e) => code !== undefined && e.code?.toLowerCase() === code) ?? response?.examples[0];
    let body = clone(example ? this.data.values[example.value] : undefined) as Json | undefined;
    if (!isObject(body)) {
      body =
        op.surface === "v2"
          ? { type: "https://docs.coinplane.dev/errors/error", title: "Error", status, code: "INTERNAL_ERROR", requestId }
          : { error: "Error", code: GENERIC_V1_CODES[status] ?? "internal_error", requestId };
    }
    if ("requestId" in body) body.requestId = requestId;
    if ("instance" in body) body.instance = path;
    if (detail) {
      if ("detail" in body || op.surface === "v2") body.detail = detail;
      else if ("error" in body) body.error = detail;
    }
    const headers = response ? this.headers(op, response, requestId) : { "x-request-id": requestId };
    headers["content-type"] = response?.contentType ?? (op.surface === "v2" ? "application/problem+json" : "application/json");
    return { status, headers, body, operationId: op.operationId };
  }

  private headers(_op: MockOperationSpec, response: MockResponseSpec, requestId: string): Record<string, string> {
    const out: Record<string, string> = { "x-request-id": requestId };
    if (response.contentType) out["content-type"] = response.contentType;
    const documented = new Set(response.headers.map((h) => h.toLowerCase()));
    if (documented.has("x-ratelimit-limit")) out["x-ratelimit-limit"] = "600";
    if (documented.has("x-ratelimit-remaining")) out["x-ratelimit-remaining"] = "599";
    if (documented.has("x-ratelimit-reset")) out["x-ratelimit-reset"] = "60";
    if (documented.has("ratelimit")) out.ratelimit = '"default";r=599;t=60';
    if (documented.has("ratelimit-policy")) out["ratelimit-policy"] = '"default";q=600;w=60';
    if (documented.has("retry-after") || response.status === 429 || response.status === 503) out["retry-after"] = "1";
    return out;
  }
}
