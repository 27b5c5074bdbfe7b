// The Coinplane client: openapi-fetch with the generated types underneath, resource namespaces on top.
import createClient, { type Client, type Middleware } from "openapi-fetch";
import { ApiPromise, type ParsedResponse } from "./api-promise.ts";
import { errorFromResponse } from "./error-response.ts";
import { CoinplaneConfigurationError, CoinplaneError } from "./errors.ts";
import type { Namespaces } from "./generated/namespaces.ts";
import type { paths } from "./generated/openapi.ts";
import { type OperationId, operationTable } from "./generated/operations.ts";
import { operationMap, type SdkOperationId } from "./operation-map.ts";
import { PagePromise, type Pagination } from "./pagination.ts";
import { type Hooks, type RetryPolicy, Transport } from "./transport.ts";
import type { MethodArgs, MethodResult, RequestOptions } from "./types.ts";

export type Environment = "sandbox" | "production";

export interface CoinplaneOptions {
  /** An organization-bound API key (`cp_sandbox_…` or `cp_production_…`). One of `apiKey` and `sessionCookie`. */
  apiKey?: string;
  /** A member's session (the `__Host-cp_session` cookie's value, from `sessions.create`) instead of an API key: for the
   * members, API-key and audit-log operations and for deciding approvals. Sent as a cookie, with this server as the
   * `Origin` (the CSRF check) and `environment` as `Coinplane-Environment`. */
  sessionCookie?: string;
  /** The API's base URL, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** Checked against the key's prefix: a sandbox client never sends a production key, and vice versa. */
  environment?: Environment;
  /** Retries after the first attempt (network errors, timeouts, 409 IDEMPOTENCY_IN_PROGRESS, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds (response body included). Default 30 000. */
  timeoutMs?: number;
  /** A fetch implementation (default: the global fetch, looked up at call time). */
  fetch?: typeof fetch;
  /** Backoff: `initialDelayMs` (default 500), `maxDelayMs` (default 8 000), `maxRetryAfterMs` (default 60 000). */
  retry?: Partial<RetryPolicy>;
  /** Called before and after every attempt (for logging and metrics). */
  hooks?: Hooks;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Generates Idempotency-Keys (default: `crypto.randomUUID()`). */
  idempotencyKey?: () => string;
}

type Def = (typeof operationTable)[OperationId] & {
  readonly body: "required" | "optional" | "none";
  readonly query: readonly string[];
  readonly pagination: Pagination | null;
};

const definition = (operationId: string): Def => (operationTable as Record<string, Def>)[operationId] as Def;
const pathParamNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
const ENV_PREFIX = /^cp_(sandbox|production)_/;

// The namespaces are built from the operation map at run time; this interface gives them their types and their
// documentation (generated from the spec: generated/namespaces.ts).
export interface Coinplane extends Namespaces {}

/**
 * The Coinplane API client: `new Coinplane({ apiKey, baseUrl })`, then `coinplane.<namespace>.<method>(…)` — every method
 * returns a promise of the parsed body with `.withResponse()` for status, headers and request id; list methods also
 * iterate every item (`for await`) and collect them (`toArray({ limit })`). Failures are `CoinplaneError`s.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above
export class Coinplane {
  /** The underlying openapi-fetch client (typed by the spec's paths), with auth, idempotency keys and retries applied. */
  readonly raw: Client<paths>;
  /** The key's environment (from the option or the key's prefix). */
  readonly environment: Environment | undefined;
  private readonly transport: Transport;
  private readonly newIdempotencyKey: () => string;

  constructor(options: CoinplaneOptions) {
    const hasKey = typeof options?.apiKey === "string" && options.apiKey.trim() !== "";
    const hasSession = typeof options?.sessionCookie === "string" && options.sessionCookie.trim() !== "";
    if (!options || hasKey === hasSession) {
      throw new CoinplaneConfigurationError({ message: "apiKey (or sessionCookie) is required", code: "INVALID_CONFIGURATION" });
    }
    if (typeof options.baseUrl !== "string" || !/^https?:\/\//.test(options.baseUrl)) {
      throw new CoinplaneConfigurationError({ message: "baseUrl must be an http(s) URL", code: "INVALID_CONFIGURATION" });
    }
    const keyEnvironment = ENV_PREFIX.exec(options.apiKey ?? "")?.[1] as Environment | undefined;
    if (options.environment && keyEnvironment && options.environment !== keyEnvironment) {
      throw new CoinplaneConfigurationError({
        message: `environment is "${options.environment}" but the API key is a ${keyEnvironment} key`,
        code: "INVALID_CONFIGURATION",
      });
    }
    this.environment = options.environment ?? keyEnvironment;
    const maxRetries = options.maxRetries ?? 2;
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new CoinplaneConfigurationError({ message: "maxRetries must be a non-negative integer", code: "INVALID_CONFIGURATION" });
    }
    if (!(timeoutMs > 0)) throw new CoinplaneConfigurationError({ message: "timeoutMs must be positive", code: "INVALID_CONFIGURATION" });
    const userFetch = options.fetch;
    this.transport = new Transport({
      fetch: userFetch ?? ((input, init) => globalThis.fetch(input, init)),
      maxRetries,
      timeoutMs,
      retry: { initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000, ...options.retry },
      hooks: options.hooks ?? {},
    });
    this.newIdempotencyKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl,
      headers: {
        ...options.headers,
        ...(hasKey
          ? { Authorization: `Bearer ${options.apiKey}` }
          : {
              Cookie: `__Host-cp_session=${options.sessionCookie}`,
              Origin: new URL(options.baseUrl).origin,
              "Coinplane-Environment": options.environment ?? "sandbox",
            }),
      },
      fetch: this.transport.fetchFor(),
    });
    this.raw.use(this.idempotencyMiddleware());
    const namespaces: Record<string, Record<string, unknown>> = {};
    for (const [operationId, [namespace, method]] of Object.entries(operationMap)) {
      namespaces[namespace] ??= {};
      (namespaces[namespace] as Record<string, unknown>)[method] = (...args: unknown[]) => this.call(operationId, args);
    }
    Object.assign(this, namespaces);
  }

  /** Register openapi-fetch middleware (runs once per call, before the retrying transport). */
  use(...middleware: Middleware[]): void {
    this.raw.use(...middleware);
  }

  /** Calls any mapped operation by its operationId: `coinplane.request("getCard", cardId)` (same result as the method,
   * `.withResponse()` included). */
  request<K extends SdkOperationId>(operationId: K, ...args: MethodArgs<K>): MethodResult<K> {
    return this.call(operationId, args) as MethodResult<K>;
  }

  /** Adds an Idempotency-Key to every operation that accepts one, unless the caller set their own. */
  private idempotencyMiddleware(): Middleware {
    const byRoute = new Map<string, Def>();
    for (const def of Object.values(operationTable) as Def[]) byRoute.set(`${def.method} ${def.path}`, def);
    return {
      onRequest: ({ request, schemaPath }) => {
        const def = byRoute.get(`${request.method} ${schemaPath}`);
        if (def && def.idempotency !== "none" && !request.headers.has("idempotency-key")) {
          request.headers.set("Idempotency-Key", this.newIdempotencyKey());
        }
        return undefined;
      },
    };
  }

  private call(operationId: string, args: unknown[]): unknown {
    const def = definition(operationId);
    const names = pathParamNames(def.path);
    const hasInput = def.body !== "none" || def.query.length > 0;
    const pathValues = args.slice(0, names.length);
    const input = hasInput ? args[names.length] : undefined;
    const options = ((hasInput ? args[names.length + 1] : args[names.length]) ?? {}) as RequestOptions;
    const path: Record<string, string> = {};
    names.forEach((name, i) => {
      const value = pathValues[i];
      if (typeof value !== "string" || value === "")
        throw new TypeError(`${operationId}: path parameter ${name} must be a non-empty string`);
      path[name] = value;
    });
    const body = def.body !== "none" ? input : undefined;
    const baseQuery = (def.body === "none" ? input : options.query) as Record<string, unknown> | undefined;
    const send = (query: Record<string, unknown> | undefined) => this.send(operationId, def, path, query, body, options);
    if (def.pagination) return new PagePromise(def.pagination, baseQuery ?? {}, send);
    return new ApiPromise(send(baseQuery));
  }

  private async send(
    operationId: string,
    def: Def,
    path: Record<string, string>,
    query: Record<string, unknown> | undefined,
    body: unknown,
    options: RequestOptions,
  ): Promise<ParsedResponse<unknown>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
    const init: Record<string, unknown> = {
      params: { path, query },
      headers,
      signal: options.signal,
      fetch: this.transport.fetchFor({ operationId, maxRetries: options.maxRetries, timeoutMs: options.timeoutMs }),
    };
    if (def.body !== "none" && body !== undefined) init.body = body;
    const client = this.raw as unknown as {
      request(method: string, url: string, init: unknown): Promise<{ data?: unknown; error?: unknown; response: Response }>;
    };
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      result = await client.request(def.method.toLowerCase(), def.path, init);
    } catch (err) {
      if (err instanceof CoinplaneError || !(err instanceof SyntaxError)) throw err;
      throw new CoinplaneError({
        message: "The API answered with a body that is not JSON",
        code: "UNEXPECTED_RESPONSE",
        operationId,
        cause: err,
      });
    }
    if (!result.response.ok) throw errorFromResponse(result.response, result.error, operationId);
    return { data: result.data, response: result.response };
  }
}
