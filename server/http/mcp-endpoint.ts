// POST /mcp: the Coinplane MCP server (sdk/src/mcp/) over Streamable HTTP, stateless (a new server and transport per
// request, JSON answers, no session). The caller's API key authenticates the request (mcp-authenticate.ts) and decides the
// tool list (its scopes and environment); every tool call goes to this service's own REST API over loopback with that
// key, so validation, scopes, idempotency, rate limits, request ids and logs are the REST surface's. docs/agents.md.
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { type Request, type RequestHandler, type Response, Router } from "express";
import { createCoinplaneMcpServer } from "../../sdk/src/mcp/index.ts";
import type { Config } from "../config.ts";
import type { Queryable } from "../db/kysely.ts";
import { setRateLimitHeaders } from "../middleware/rate-limit.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { RateLimiter } from "../rate-limit/rate-limiter.ts";
import { RateLimitStoreError } from "../rate-limit/rate-limiter.ts";
import { authenticateMcp } from "./mcp-authenticate.ts";
import { originAllowed } from "./mcp-origin.ts";

export interface McpEndpointDeps {
  db: Queryable;
  config: Pick<Config, "bodyLimitBytes" | "people" | "requestTimeoutMs">;
  rateLimiter: RateLimiter;
  metrics: Metrics;
}

/** This service as seen from itself: the address and port the request arrived on. */
function loopbackUrl(req: Request): string {
  const address = req.socket.localAddress ?? "127.0.0.1";
  const host = address.includes(":") && !address.startsWith("::ffff:") ? `[${address}]` : address.replace(/^::ffff:/, "");
  return `http://${host}:${req.socket.localPort}`;
}

function toolsetsOf(req: Request): string[] | undefined {
  const value = req.query.toolsets;
  return typeof value === "string"
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
}

/** A JSON-RPC message that lists tools or initializes spends the key's request budget here; a tool call spends it
 * in the REST call it makes (once, not twice). */
function callsTools(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 && messages.every((m) => (m as { method?: unknown } | null)?.method === "tools/call");
}

async function handle(deps: McpEndpointDeps, req: Request, res: Response): Promise<void> {
  if (!originAllowed(req, deps.config.people.publicUrl)) {
    res.status(403).json({ error: "Cross-origin request to /mcp refused", code: "forbidden", requestId: req.ctx.requestId });
    return;
  }
  const caller = await authenticateMcp(deps.db, deps.rateLimiter.authFailures, req, res);
  if (!caller) return;
  if (!callsTools(req.body)) {
    try {
      const d = await deps.rateLimiter.consume(caller.apiKeyId, caller.organizationId);
      setRateLimitHeaders(res, d);
      if (!d.allowed) {
        res.setHeader("Retry-After", String(d.resetSeconds));
        res.status(429).json({ error: "Rate limit exceeded", code: "rate_limited", requestId: req.ctx.requestId });
        return;
      }
    } catch (error) {
      if (!(error instanceof RateLimitStoreError)) throw error;
      res.setHeader("Retry-After", "5");
      res.status(503).json({ error: "The rate limiter is unavailable", code: "rate_limit_unavailable", requestId: req.ctx.requestId });
      return;
    }
  }
  const called: string[] = [];
  res.locals.mcpTools = called;
  let n = 0;
  const server = createCoinplaneMcpServer({
    baseUrl: loopbackUrl(req),
    apiKey: caller.apiKey,
    access: { environment: caller.environment, scopes: caller.scopes },
    toolsets: toolsetsOf(req),
    mode: req.query.mode === "dynamic" ? "dynamic" : "tools",
    // A wait for an approval ends 5 s before the request's deadline (REQUEST_TIMEOUT_MS), which would otherwise answer 503.
    maxWaitSeconds: Math.max(0, Math.floor(deps.config.requestTimeoutMs / 1000) - 5),
    consoleUrl: deps.config.people.publicUrl ?? `${req.protocol}://${req.get("host")}`,
    // The REST calls carry this request's id with a suffix, so their log lines lead back to the tool call.
    headers: { "X-Request-Id": `${req.ctx.requestId}.mcp` },
    onToolCall: ({ tool, outcome, status, durationMs }) => {
      called.push(tool);
      n += 1;
      deps.metrics.mcpToolCall(tool, outcome);
      req.ctx.log.info({ tool, outcome, status, durationMs, call: n }, "mcp tool call");
    },
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

export function mcpEndpoint(deps: McpEndpointDeps): Router {
  const router = Router();
  const json = express.json({ limit: deps.config.bodyLimitBytes, type: ["application/json"] });
  const post: RequestHandler = (req, res, next) => {
    handle(deps, req, res).catch(next);
  };
  router.post("/mcp", json, post);
  // Stateless: no stream to open (GET) and no session to end (DELETE).
  router.all("/mcp", (req, res) => {
    res.setHeader("Allow", "POST");
    res.status(405).json({ error: "Use POST (stateless Streamable HTTP)", code: "method_not_allowed", requestId: req.ctx.requestId });
  });
  return router;
}
