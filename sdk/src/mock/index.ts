// @coinplane/sdk/mock — the partner mock: msw handlers for every operation of the spec, answering as the API does (request
// validation, API keys and scopes, the server's error shapes; see engine.ts for the steps and the X-Mock-* headers) with
// its documented examples and a small in-memory state, plus a standalone HTTP server for partners outside JavaScript
// (`startMockServer`, or the `coinplane-mock` bin) running the same engine.
import { type HttpHandler, HttpResponse, http } from "msw";
import { MockEngine, type MockEngineOptions, type MockRequest, type MockResult } from "./engine.ts";
import { parseRequestBody } from "./request-body.ts";

// SANDBOX_FX_USD_RATES: the name this table had when the mock kept its own copy (kept for callers of 0.x).
export { SANDBOX_USD_RATES as SANDBOX_FX_USD_RATES, SANDBOX_USD_RATES } from "../sandbox/usd-rates.ts";
export { MOCK_ORGANIZATION_ID, type MockApiKey, mockApiKeys } from "./api-keys.ts";
export { buildMockEvent, type EmitMockEventOptions, type EmitMockEventResult, emitMockEvent, mockEventTypes } from "./emit-event.ts";
export { MockEngine, type MockEngineOptions, type MockRequest, type MockResult } from "./engine.ts";
export { type MockServer, type MockServerOptions, startMockServer } from "./server.ts";
export type { MockSpendingLimit } from "./spending-limits.ts";
export type { MockData, MockOperationSpec, MockWebhookSpec } from "./types.ts";

export const DEFAULT_MOCK_BASE_URL = "http://localhost:8080";

export interface CoinplaneMockOptions extends MockEngineOptions {
  /** The base URL the handlers answer under (default http://localhost:8080). */
  baseUrl?: string;
  /** Share one engine (state) between several handler sets. */
  engine?: MockEngine;
}

export interface CoinplaneMock {
  /** One msw handler per operation, then one answering any other path under the base URL (404, or 405 with Allow):
   * `setupServer(...mock.handlers)`. */
  handlers: HttpHandler[];
  /** The same handlers by operationId. */
  handlersById: Map<string, HttpHandler>;
  engine: MockEngine;
  /** Forgets created resources and idempotency records (call it between tests). */
  reset(): void;
}

/** Reads a fetch Request into the engine's input (a JSON body parsed as the server's body parser does). */
export async function toMockRequest(request: Request): Promise<MockRequest> {
  const base = { method: request.method, url: request.url, headers: request.headers };
  if (request.method === "GET" || request.method === "HEAD") return base;
  return { ...base, ...parseRequestBody(await request.text(), request.headers.get("content-type")) };
}

export function toHttpResponse(result: MockResult): HttpResponse<string> {
  return new HttpResponse(result.body === undefined ? null : JSON.stringify(result.body), {
    status: result.status,
    headers: result.headers,
  });
}

export function createCoinplaneMock(options: CoinplaneMockOptions = {}): CoinplaneMock {
  const engine = options.engine ?? new MockEngine(options);
  const baseUrl = (options.baseUrl ?? DEFAULT_MOCK_BASE_URL).replace(/\/+$/, "");
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  // The engine routes by itself, from the path below the base URL, so msw's handlers and the standalone server answer
  // alike (a malformed percent-encoding included); each handler only claims its operation's requests for msw.
  const answer = async (request: Request) => {
    const url = new URL(request.url);
    const relative = `${url.pathname.slice(basePath.length) || "/"}${url.search}`;
    return toHttpResponse(engine.handle({ ...(await toMockRequest(request)), url: relative }));
  };
  const routes = [...engine.data.operations].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  const handlersById = new Map<string, HttpHandler>();
  const handlers = routes.map((op) => {
    const path = `${baseUrl}${op.path.replace(/\{([^}]+)\}/g, ":$1")}`;
    const method = op.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    const handler = http[method](path, ({ request }) => answer(request));
    handlersById.set(op.operationId, handler);
    return handler;
  });
  // Last: any other request under the base URL gets the API's 404 (unknown path) or 405 (another method, with Allow).
  handlers.push(http.all(`${baseUrl}/*`, ({ request }) => answer(request)));
  return { handlers, handlersById, engine, reset: () => engine.reset() };
}

/** The handlers alone (a fresh state): `setupServer(...createMockHandlers({ baseUrl }))`. */
export function createMockHandlers(options: CoinplaneMockOptions = {}): HttpHandler[] {
  return createCoinplaneMock(options).handlers;
}
