// @coinplane/sdk/mock — the partner mock: msw handlers for every operation of the spec, answering with its documented
// examples and a small in-memory state (see engine.ts for the rules and the X-Mock-* headers), plus a standalone HTTP
// server for partners outside JavaScript (`startMockServer`, or the `coinplane-mock` bin) running the same engine.
import { type HttpHandler, HttpResponse, http } from "msw";
import { MockEngine, type MockEngineOptions, type MockRequest, type MockResult } from "./engine.ts";
import { parseRequestBody } from "./request-body.ts";

export { buildMockEvent, type EmitMockEventOptions, type EmitMockEventResult, emitMockEvent, mockEventTypes } from "./emit-event.ts";
export { MockEngine, type MockEngineOptions, type MockRequest, type MockResult } from "./engine.ts";
export { type MockServer, type MockServerOptions, startMockServer } from "./server.ts";
export type { MockData, MockOperationSpec, MockWebhookSpec } from "./types.ts";

export const DEFAULT_MOCK_BASE_URL = "http://localhost:8080";

export interface CoinplaneMockOptions extends MockEngineOptions {
  /** The base URL the handlers answer under (default http://localhost:8080). */
  baseUrl?: string;
  /** Share one engine (state) between several handler sets. */
  engine?: MockEngine;
}

export interface CoinplaneMock {
  /** One msw handler per operation: `setupServer(...mock.handlers)`. */
  handlers: HttpHandler[];
  /** The same handlers by operationId. */
  handlersById: Map<string, HttpHandler>;
  engine: MockEngine;
  /** Forgets created resources and idempotency records (call it between tests). */
  reset(): void;
}

/** Reads a fetch Request into the engine's input (JSON body parsed; invalid JSON flagged). */
export async function toMockRequest(request: Request): Promise<MockRequest> {
  const text = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
  return { method: request.method, url: request.url, headers: request.headers, ...parseRequestBody(text) };
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
  const routes = [...engine.data.operations].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  const handlersById = new Map<string, HttpHandler>();
  const handlers = routes.map((op) => {
    const path = `${baseUrl}${op.path.replace(/\{([^}]+)\}/g, ":$1")}`;
    const method = op.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    const handler = http[method](path, async ({ request, params }) => {
      const decoded: Record<string, string> = {};
      for (const [k, v] of Object.entries(params)) decoded[k] = decodeURIComponent(String(v));
      return toHttpResponse(engine.handleOperation(op.operationId, decoded, await toMockRequest(request)));
    });
    handlersById.set(op.operationId, handler);
    return handler;
  });
  return { handlers, handlersById, engine, reset: () => engine.reset() };
}

/** The handlers alone (a fresh state): `setupServer(...createMockHandlers({ baseUrl }))`. */
export function createMockHandlers(options: CoinplaneMockOptions = {}): HttpHandler[] {
  return createCoinplaneMock(options).handlers;
}
