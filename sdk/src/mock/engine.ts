// The partner mock's logic, independent of any HTTP library: routes a request to an operation of the spec and answers
// it as the server would — the same steps in the same order, the same error shapes and words — with the spec's
// documented examples and a small in-memory state (created resources are read back, listed and acted on; an unknown id
// of a resource the mock creates is 404 "<Resource> not found"; Idempotency-Keys replay). Used by the msw handlers and
// the standalone server alike. Documented in docs/getting-started.md and the SDK README.
//
// The steps (as server/app.ts runs them):
//   body      invalid JSON, unstorable strings, nesting deeper than 64 → 400 (request-body.ts)
//   route     unknown path → 404, other method → 405 with Allow, malformed percent-encoding → 400
//   auth      no key, or a key the mock does not know (api-keys.ts: the documented test keys) → 401
//   X-Mock-*  X-Mock-Error: <CODE> / X-Mock-Status: <status> → that documented error of the operation;
//             X-Mock-Example: <name> → that success example; an unknown value → 400 listing the valid ones
//   validate  parameters and body against the operation's schemas → 400 / 415 (request-validation.ts)
//   scopes    a scope missing → 403; a production key on /api/v1 → 403; another organizationId → 403
//   idempotency  the same key with another request → 422; with the same → the first answer, Idempotent-Replayed: true
//   handler   a referenced resource unknown → 404; Sandbox-Simulate-Error (cards); providers/invoke: the category's
//             scope, and the FX quote computed from its input (../sandbox/fx-quote.ts, the server's own); then the success example
import { mockData as generatedData } from "../generated/mock-data.ts";
import { parseIdempotencyKey, requestFingerprintText } from "../protocol/idempotency-key.ts";
import { CATEGORY_SCOPE, hasScope } from "../protocol/scopes.ts";
import { FX_FAILING_AMOUNT, FX_QUOTE_INPUT_SCHEMA, type FxQuoteInput, fxQuote } from "../sandbox/fx-quote.ts";
import type { MockError } from "./api-errors.ts";
import { defaultMockKeys, type MockApiKey } from "./api-keys.ts";
import { IdempotencyRecords } from "./idempotency.ts";
import { createAjv, SchemaCheck } from "./json-schema.ts";
import { listPage } from "./lists.ts";
import { forcedAnswer } from "./mock-headers.ts";
import { clone, MockState, type Stored } from "./mock-state.ts";
import { findUnacceptable, isJsonMediaType } from "./request-body.ts";
import { RequestValidator } from "./request-validation.ts";
import { documentedError, documentedResult, errorResult, responseHeaders } from "./responses.ts";
import { RouteTable } from "./routes.ts";
import { SpendingLedger, spendingLimitsAnswer } from "./spending-limits.ts";
import type { MockData, MockExample, MockOperationSpec, MockRequest, MockResponseSpec, MockResult } from "./types.ts";

export type { MockRequest, MockResult } from "./types.ts";

export interface MockEngineOptions {
  data?: MockData;
  now?: () => Date;
  random?: () => number;
  /** API keys the mock accepts besides the documented test keys (`mockApiKeys`). */
  apiKeys?: Record<string, MockApiKey>;
}

/** A path parameter or body field naming a resource: its store and id. */
interface Reference {
  name: string;
  store: string;
  id: string;
}

/** The caller: its bearer token and the key it names (none on operations without API-key security). */
interface Caller {
  token?: string;
  key?: MockApiKey;
}

type Json = Record<string, unknown>;
type HeaderOf = (name: string) => string | undefined;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const QUERY_CREDENTIALS = ["api_key", "apikey", "apiKey", "key", "access_token", "token"];

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const lcFirst = (s: string) => `${s[0]?.toLowerCase() ?? ""}${s.slice(1)}`;

function header(headers: MockRequest["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | undefined>)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

export class MockEngine {
  readonly data: MockData;
  private readonly routeTable: RouteTable;
  private readonly byId: Map<string, MockOperationSpec>;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly keys: Record<string, MockApiKey>;
  private readonly validator: RequestValidator;
  private readonly schemaCheck: SchemaCheck;
  private readonly fxInput;
  private readonly state: MockState;
  private readonly idempotency = new IdempotencyRecords();
  private readonly spending = new SpendingLedger();

  constructor(options: MockEngineOptions = {}) {
    this.data = options.data ?? generatedData;
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.keys = { ...defaultMockKeys(this.data.scopes), ...options.apiKeys };
    this.validator = new RequestValidator(this.data);
    this.schemaCheck = new SchemaCheck(createAjv({ coerce: false, countries: this.data.countries }));
    // The FX simulator validates its input with every error reported (server/providers/validate-input.ts).
    this.fxInput = createAjv({ coerce: false, countries: [], allErrors: true }).compile(FX_QUOTE_INPUT_SCHEMA);
    this.state = new MockState(this.data);
    this.byId = new Map(this.data.operations.map((o) => [o.operationId, o]));
    this.routeTable = new RouteTable(this.data.operations);
  }

  /** Forgets every created resource and idempotency record. */
  reset(): void {
    this.state.reset();
    this.idempotency.reset();
    this.spending.reset();
  }

  /** Every operation the mock serves (method, path template, operationId). */
  get routes(): Array<Pick<MockOperationSpec, "operationId" | "method" | "path">> {
    return this.data.operations.map(({ operationId, method, path }) => ({ operationId, method, path }));
  }

  /** The operation a method and path belong to, with its path parameters; else the methods the path allows (405), none
   * (404), or the parameter that is not valid percent-encoding (400). */
  match(method: string, pathname: string) {
    return this.routeTable.match(method, pathname);
  }

  /** Routes and answers one request. */
  handle(request: MockRequest): MockResult {
    const url = new URL(request.url, "http://mock.invalid");
    const method = request.method.toUpperCase();
    const requestId = this.requestId(request);
    const unreadable = this.bodyProblem(request);
    if (unreadable) return this.fail(url.pathname, unreadable, requestId);
    const route = this.match(method, url.pathname);
    if ("operationId" in route) return this.operate(this.operation(route.operationId), route.params, request, url, requestId);
    if ("malformed" in route) {
      const path = `/params/${route.malformed}`;
      return this.fail(
        url.pathname,
        {
          code: "VALIDATION_ERROR",
          message: `${path} is not valid percent-encoded text`,
          errors: [{ path, message: "must be valid percent-encoded UTF-8 without NUL characters" }],
        },
        requestId,
      );
    }
    if (route.allowed.length > 0) {
      const result = this.fail(
        url.pathname,
        { code: "METHOD_NOT_ALLOWED", message: `${method} is not allowed on ${url.pathname}` },
        requestId,
      );
      result.headers.allow = route.allowed.join(", ");
      return result;
    }
    return this.fail(url.pathname, { code: "NOT_FOUND", message: `No route for ${method} ${url.pathname}` }, requestId);
  }

  /** Answers a request already routed to `operationId`, with its decoded path parameters. */
  handleOperation(operationId: string, params: Record<string, string>, request: MockRequest): MockResult {
    const url = new URL(request.url, "http://mock.invalid");
    const requestId = this.requestId(request);
    const unreadable = this.bodyProblem(request);
    if (unreadable) return this.fail(url.pathname, unreadable, requestId);
    return this.operate(this.operation(operationId), params, request, url, requestId);
  }

  private operation(operationId: string): MockOperationSpec {
    const op = this.byId.get(operationId);
    if (!op) throw new Error(`unknown operation ${operationId}`);
    return op;
  }

  /** What the server's body parser refuses (before routing). */
  private bodyProblem(request: MockRequest): MockError | undefined {
    const contentType = header(request.headers, "content-type");
    const charset = /;\s*charset=([^;\s]+)/i
      .exec(contentType ?? "")?.[1]
      ?.toLowerCase()
      .replace(/"/g, "");
    if (isJsonMediaType(contentType) && charset !== undefined && !charset.startsWith("utf-"))
      return { code: "UNSUPPORTED_MEDIA_TYPE", message: "Unsupported content encoding or charset" };
    if (request.invalidJson)
      return {
        code: "VALIDATION_ERROR",
        message: "The request body is not valid JSON",
        errors: [{ path: "/body", message: "malformed JSON" }],
      };
    const problem = findUnacceptable(request.body);
    if (problem) return { code: "VALIDATION_ERROR", message: `${problem.path} ${problem.message}`, errors: [problem] };
    return undefined;
  }

  private operate(op: MockOperationSpec, params: Record<string, string>, request: MockRequest, url: URL, requestId: string): MockResult {
    const path = url.pathname;
    const fail = (error: MockError) => this.fail(path, error, requestId, op);
    const get = (name: string) => header(request.headers, name);

    // Authentication.
    const caller = this.authenticate(op, get, url);
    if ("code" in caller) return fail(caller);

    // X-Mock-*.
    const forced = forcedAnswer(this.data, op, get, path, requestId);
    if (forced) return forced;

    // Validation.
    const problem = this.validator.validate(op, {
      params,
      query: url.searchParams,
      header: get,
      body: request.body,
      contentType: get("content-type"),
    });
    if (problem) return fail(problem);

    // Authorization.
    const body = isObject(request.body) ? request.body : {};
    if (caller.key) {
      const missing = op.scopes.filter((scope) => !hasScope(caller.key?.scopes ?? [], scope));
      if (missing.length > 0)
        return fail({ code: "FORBIDDEN", message: `This API key lacks the scope ${missing.join(", ")} required by this operation` });
      if (op.surface === "v1" && caller.key.environment !== "sandbox")
        return fail({ code: "FORBIDDEN", message: "This endpoint is sandbox-only; use a sandbox API key" });
      if (body.organizationId !== undefined && body.organizationId !== caller.key.organizationId)
        return fail({ code: "FORBIDDEN", message: "organizationId does not match the API key's organization" });
    }

    // Idempotency.
    const raw = op.idempotency !== "none" && caller.key ? get("idempotency-key") : undefined;
    const key = raw === undefined ? undefined : parseIdempotencyKey(raw);
    if (key === null) {
      return fail({
        code: "VALIDATION_ERROR",
        message: "Idempotency-Key must be 1–255 printable ASCII characters",
        errors: [{ path: "/headers/idempotency-key", message: "must be 1–255 printable ASCII characters" }],
      });
    }
    const idemKey = key === undefined ? undefined : `${caller.token ?? ""}\u0000${key}`;
    const fingerprint = requestFingerprintText(op.method, path, request.body);
    const previous = idemKey === undefined ? undefined : this.idempotency.lookup(idemKey, fingerprint);
    if (previous === "reused")
      return fail({ code: "IDEMPOTENCY_KEY_REUSED", message: "This Idempotency-Key was already used with a different request" });
    if (previous) return previous;

    // The key's spending limits, after the replay (a replay is not counted again); the refusal is the key's answer too.
    const overLimit = caller.token
      ? this.spending.charge(caller.token, caller.key?.spendingLimits, op.operationId, body, this.now())
      : undefined;
    const result = overLimit ? fail(overLimit) : this.handler(op, params, url, body, caller, get, requestId);
    // As the server: every answer of the handler is kept for the key, but not a 5xx or a 429 (a retry executes).
    if (idemKey && result.status < 500 && result.status !== 429) this.idempotency.keep(idemKey, fingerprint, result);
    return result;
  }

  private authenticate(op: MockOperationSpec, get: HeaderOf, url: URL): Caller | MockError {
    if (op.security === "schedulerSecret") {
      return get("x-scheduler-secret") ? {} : { code: "UNAUTHORIZED", message: "Missing or invalid scheduler secret" };
    }
    // A member's session: the mock keeps no people, so any session cookie stands for a signed-in owner.
    if (op.security === "session") {
      return /(?:^|;\s*)__Host-cp_session=[^;\s]+/.test(get("cookie") ?? "")
        ? {}
        : { code: "UNAUTHORIZED", message: "Missing or expired session" };
    }
    if (op.security !== "apiKey") return {};
    if (QUERY_CREDENTIALS.some((name) => url.searchParams.has(name)))
      return { code: "UNAUTHORIZED", message: "API keys are accepted only in the Authorization header" };
    const token = /^Bearer ([^\s]+)$/i.exec(get("authorization") ?? "")?.[1];
    const key = token !== undefined && Object.hasOwn(this.keys, token) ? this.keys[token] : undefined;
    return key ? { token, key } : { code: "UNAUTHORIZED", message: "Missing or invalid API key" };
  }

  /** The path parameters and body fields of this request that name a resource. */
  private references(op: MockOperationSpec, params: Record<string, string>, body: Json): Reference[] {
    const refs: Reference[] = [];
    for (const p of op.params) {
      const id = params[p.name];
      if (p.in === "path" && p.resource && id !== undefined) refs.push({ name: p.name, store: p.resource, id });
    }
    for (const r of op.bodyRefs ?? []) {
      const id = body[r.field];
      if (typeof id === "string") refs.push({ name: r.field, store: r.resource, id });
    }
    return refs;
  }

  private handler(
    op: MockOperationSpec,
    params: Record<string, string>,
    url: URL,
    body: Json,
    caller: Caller,
    get: HeaderOf,
    requestId: string,
  ): MockResult {
    const path = url.pathname;
    const exampleName = get("x-mock-example");
    const fail = (error: MockError) => this.fail(path, error, requestId, op);
    const refs = this.references(op, params, body);
    const has404 = op.responses.some((r) => r.status === 404);
    for (const ref of refs) {
      const store = this.data.schemas[ref.store];
      if (has404 && store?.creatable && !this.state.known(ref.store, ref.id))
        return fail({ code: "NOT_FOUND", message: `${store.noun} not found` });
    }
    // The card issuing simulator's magic header: its documented error, after the lookups (as the simulator answers it).
    const simulate = op.request.parameters.some((p) => p.name === "sandbox-simulate-error") ? get("sandbox-simulate-error") : undefined;
    const simulated = simulate === undefined ? undefined : documentedError(op, { code: simulate });
    if (simulated) return documentedResult(this.data, op, simulated, path, requestId);
    if (op.operationId === "invokeProvider") {
      const refused = this.invokeChecks(op, body, caller, path, requestId);
      if (refused) return refused;
    }
    return this.success(op, params, url, body, refs, requestId, exampleName);
  }

  /** providers/invoke's own checks: the category's scope, then (FX quotes) the simulator's input and magic amount. */
  private invokeChecks(op: MockOperationSpec, body: Json, caller: Caller, path: string, requestId: string): MockResult | null {
    const category = String(body.category);
    const scope = (CATEGORY_SCOPE as Record<string, string | undefined>)[category];
    if (scope && caller.key && !hasScope(caller.key.scopes, scope))
      return this.fail(
        path,
        { code: "FORBIDDEN", message: `This API key lacks the scope ${scope} required for ${category} providers` },
        requestId,
        op,
      );
    if (category !== "fx" || body.operation !== "quote") return null;
    const input = body.input ?? {};
    if (!this.fxInput(input)) {
      const errors = (this.fxInput.errors ?? []).map((e) => ({ path: `/body/input${e.instancePath}`, message: e.message ?? "is invalid" }));
      return this.fail(path, { code: "INVALID_INPUT", message: "input does not match the quote input schema", errors }, requestId, op);
    }
    if ((input as FxQuoteInput).sellAmount === FX_FAILING_AMOUNT) {
      const found = documentedError(op, { code: "PROVIDER_EXECUTION_FAILED" });
      if (found) return documentedResult(this.data, op, found, path, requestId);
    }
    return null;
  }

  private success(
    op: MockOperationSpec,
    params: Record<string, string>,
    url: URL,
    body: Json,
    refs: Reference[],
    requestId: string,
    exampleName: string | undefined,
  ): MockResult {
    const responseSchema = op.resource?.schema;
    const schema = responseSchema ? this.data.schemas[responseSchema] : undefined;
    const store = schema?.store;
    const idField = schema?.idField;
    // The resource the request acts on or reads: a reference into the response's own store.
    const targetRef = store ? refs.find((r) => r.store === store) : undefined;
    const target = targetRef && store ? this.state.get(store, targetRef.id) : undefined;
    const creating = op.method === "POST" && !targetRef;
    // A DELETE answers no resource: it removes the one its path names.
    const deleted = op.method === "DELETE" ? refs.filter((r) => r.name in params).at(-1) : undefined;
    if (deleted) this.state.delete(deleted.store, deleted.id);

    const successes = op.responses.filter((r) => r.status >= 200 && r.status < 300);
    const named = exampleName === undefined ? undefined : successes.find((r) => r.examples.some((e) => e.name === exampleName));
    const response = named ?? successes.find((r) => r.status === (creating ? 201 : 200)) ?? successes[0];
    if (!response) return this.fail(url.pathname, { code: "INTERNAL_ERROR", message: "An unexpected error occurred" }, requestId, op);
    const example = named ? response.examples.find((e) => e.name === exampleName) : this.matchingExample(response, body);
    let value = clone(example ? this.data.values[example.value] : undefined);
    const now = this.now().toISOString();

    if (op.list && isObject(value)) {
      const page = listPage(this.data, this.state, op, value, url);
      if ("problem" in page) {
        const { path: field, message } = page.problem;
        return this.fail(url.pathname, { code: "VALIDATION_ERROR", message: `${field} ${message}`, errors: [page.problem] }, requestId, op);
      }
      value = page.envelope;
    } else if (isObject(value) && responseSchema && store) {
      if (op.method === "GET" && target) {
        value = this.state.project(target.value, responseSchema);
      } else {
        if (target) for (const k of target.identity) if (k in target.value && k in value) value[k] = clone(target.value[k]);
        const echoed: string[] = [];
        for (const [k, s] of Object.entries(op.resource?.echo ?? {})) {
          if (k in body && this.schemaCheck.conforms(s, body[k])) {
            value[k] = clone(body[k]);
            echoed.push(k);
          }
        }
        this.substitute(op, params, url, refs, value);
        const id = idField ? value[idField] : undefined;
        if (creating && typeof id === "string" && !refs.some((r) => r.id === id)) {
          value[idField as string] = this.freshId(id);
          if (typeof value.createdAt === "string") value.createdAt = now;
          // An event's `timestamp` is its `createdAt` under the Standard Webhooks name.
          if (typeof value.timestamp === "string") value.timestamp = now;
        }
        if (typeof value.updatedAt === "string") value.updatedAt = now;
        if (target && typeof target.value.version === "number" && typeof value.version === "number")
          value.version = target.value.version + 1;
        if (exampleName === undefined) this.computeFxQuote(op, body, value, now);
        // A key created with spending limits shows them as the server answers them (each limit present, null if left out).
        if (creating && Array.isArray(value.spendingLimits))
          value.spendingLimits = spendingLimitsAnswer(body.spendingLimits as Parameters<typeof spendingLimitsAnswer>[0]);
        if (idField && typeof value[idField] === "string") {
          const identity = target ? [...new Set([...target.identity, ...echoed])] : [idField, ...echoed, "createdAt"];
          const stored: Stored = { value: target ? { ...target.value, ...value } : value, identity };
          this.state.put(store, value[idField] as string, stored);
        }
      }
    } else if (isObject(value)) {
      this.substitute(op, params, url, refs, value);
    }
    return { status: response.status, headers: responseHeaders(response, requestId), body: value, operationId: op.operationId };
  }

  /** The first example that does not contradict the request: a top-level text field both carry must agree (an FX quote
   * answers with the FX example, a custody transfer with the custody one). */
  private matchingExample(response: MockResponseSpec, body: Json): MockExample | undefined {
    const agrees = (e: MockExample) => {
      const value = this.data.values[e.value];
      if (!isObject(value)) return true;
      return Object.entries(body).every(([k, v]) => typeof v !== "string" || typeof value[k] !== "string" || value[k] === v);
    };
    return response.examples.find(agrees) ?? response.examples[0];
  }

  /** providers/invoke of an FX quote: the output computed from the input (../sandbox/fx-quote.ts), a new quote and invocation. */
  private computeFxQuote(op: MockOperationSpec, body: Json, value: Json, now: string): void {
    if (op.operationId !== "invokeProvider" || body.category !== "fx" || body.operation !== "quote" || !isObject(value.output)) return;
    const input = body.input as FxQuoteInput;
    const { rate, buyAmount } = fxQuote(input);
    const quoteId = typeof value.output.quoteId === "string" ? this.freshId(value.output.quoteId) : undefined;
    const expiresAt = new Date(Date.parse(now) + 60_000).toISOString();
    value.output = {
      ...value.output,
      quoteId,
      sellCurrency: input.sellCurrency,
      buyCurrency: input.buyCurrency,
      rate,
      sellAmount: input.sellAmount,
      buyAmount,
      expiresAt,
    };
    if (typeof value.createdAt === "string") value.createdAt = now;
  }

  /** Path parameters and body references (and, on reads, query parameters) replace the example's fields of the same
   * name, and `<resource>Id` fields of the resources they name. */
  private substitute(op: MockOperationSpec, params: Record<string, string>, url: URL, refs: Reference[], value: Json): void {
    for (const p of op.params) {
      if (p.in === "path") {
        const v = params[p.name];
        if (typeof value[p.name] === "string" && v !== undefined) value[p.name] = v;
      } else if (op.method === "GET") {
        const v = url.searchParams.get(p.name);
        if (v !== null && typeof value[p.name] === "string") value[p.name] = v;
      }
    }
    for (const ref of refs) {
      if (ref.store === op.resource?.schema) continue;
      for (const n of [ref.name, `${lcFirst(ref.store)}Id`]) if (typeof value[n] === "string") value[n] = ref.id;
    }
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
    // The server's format: `req_` and 24 letters or digits.
    return this.freshId("req_000000000000000000000000");
  }

  private fail(path: string, error: MockError, requestId: string, op?: MockOperationSpec): MockResult {
    return errorResult(path, error, requestId, op);
  }
}
