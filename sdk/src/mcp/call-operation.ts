// Calls the operation behind a tool through the SDK's openapi-fetch client: path and query parameters, the body's
// properties and the Idempotency-Key header from one flat argument object. Every REST rule applies (validation, scopes,
// idempotency, rate limits): the tool layer adds nothing the API would not check.
import createClient from "openapi-fetch";
import type { paths } from "../generated/openapi.ts";
import type { McpToolDefinition } from "./tool-definition.ts";
import type { HttpAnswer } from "./tool-results.ts";

export const IDEMPOTENCY_ARGUMENT = "idempotency_key";
export const WAIT_ARGUMENT = "wait_seconds";

export interface ApiConnection {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Per request; default 30 s (the API answers within its own 30 s deadline). */
  timeoutMs?: number;
  /** Extra headers on every call (the server's endpoint names the tool for its logs). */
  headers?: Record<string, string>;
}

type Client = ReturnType<typeof createClient<paths>>;
const clients = new WeakMap<ApiConnection, Client>();

function clientFor(connection: ApiConnection): Client {
  let client = clients.get(connection);
  if (!client) {
    client = createClient<paths>({
      baseUrl: connection.baseUrl.replace(/\/$/, ""),
      fetch: connection.fetch ?? ((input) => fetch(input)),
      headers: { authorization: `Bearer ${connection.apiKey}`, ...connection.headers },
    });
    clients.set(connection, client);
  }
  return client;
}

/** Models send `null` for optional arguments they mean to leave out: null is absent. */
export function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));
}

export async function callOperation(
  connection: ApiConnection,
  tool: McpToolDefinition,
  rawArgs: Record<string, unknown>,
  extraHeaders: Record<string, string> = {},
): Promise<HttpAnswer> {
  const args = withoutNulls(rawArgs);
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (name === IDEMPOTENCY_ARGUMENT || name === WAIT_ARGUMENT) continue;
    if (tool.pathParams.includes(name)) path[name] = value;
    else if (tool.queryParams.includes(name)) query[name] = value;
    // Unknown arguments go to the body too, so the API names them (400 VALIDATION_ERROR) instead of losing them.
    else body[name] = value;
  }
  const headers: Record<string, string> = { ...extraHeaders };
  const key = args[IDEMPOTENCY_ARGUMENT];
  if (typeof key === "string" && tool.idempotency !== "none") headers["Idempotency-Key"] = key;
  const sendBody = tool.bodyParams !== null && (tool.bodyRequired || Object.keys(body).length > 0);
  const client = clientFor(connection) as unknown as {
    request: (
      method: string,
      url: string,
      init: Record<string, unknown>,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  };
  const { data, error, response } = await client.request(tool.method, tool.path, {
    params: { path, query },
    headers,
    ...(sendBody ? { body } : {}),
    signal: AbortSignal.timeout(connection.timeoutMs ?? 30_000),
  });
  return {
    status: response.status,
    body: response.ok ? data : error,
    retryAfter: response.headers.get("retry-after"),
    requestId: response.headers.get("x-request-id"),
  };
}
