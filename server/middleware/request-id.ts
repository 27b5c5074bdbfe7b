import type { RequestHandler, Response } from "express";
import type { RequestContext } from "../context.ts";
import { randomBase62 } from "../lib/ids.ts";
import type { Logger } from "../logger.ts";
import type { Metrics, Rejection } from "../observability/metrics.ts";
import { serverSpanOf } from "../observability/tracing.ts";
import { AUTH_FAILURE_POLICY } from "../rate-limit/rate-limiter.ts";
import { type Surface, surfaceOf } from "../spec/operations.ts";

const CALLER_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A refusal worth counting, read from the answer: 401, or 429 from a key's budget or the address's failure budget. */
function rejectionOf(res: Response): Rejection | undefined {
  if (res.statusCode === 401) return "unauthenticated";
  if (res.statusCode !== 429) return undefined;
  return String(res.getHeader("RateLimit-Policy") ?? "").startsWith(`"${AUTH_FAILURE_POLICY}"`) ? "auth_failures_limited" : "rate_limited";
}

/** The chain's context of one request. A class, so a request allocates one object: the bound logger's getter lives on
 * the prototype, where an object literal with a getter allocated its own accessor and closure per request. */
class ChainContext implements RequestContext {
  declare operation?: RequestContext["operation"];
  declare auth?: RequestContext["auth"];
  declare bodyError?: unknown;
  declare idempotency?: RequestContext["idempotency"];
  declare reachedHandler?: true;
  readonly requestId: string;
  readonly surface: Surface;
  private readonly logger: Logger;
  private readonly traceId: string | undefined;
  params: Record<string, string> = {};
  private bound: Logger | undefined = undefined;

  constructor(requestId: string, surface: Surface, logger: Logger, traceId: string | undefined) {
    this.requestId = requestId;
    this.surface = surface;
    this.logger = logger;
    this.traceId = traceId;
  }

  get log(): Logger {
    this.bound ??= this.logger.child(this.traceId ? { requestId: this.requestId, traceId: this.traceId } : { requestId: this.requestId });
    return this.bound;
  }
}

/** Assigns the request id (a well-formed caller `X-Request-Id` is kept), a logger bound to it, and logs and counts each
 * response (GET /metrics). The bound (child) logger is made only when something logs through it: most requests log only
 * their response line, which carries the request id itself. When tracing is on (server/observability/tracing.ts), the
 * request's span carries the request id and the log lines carry the trace id: either one finds the other. */
export function requestIdAndLogger(logger: Logger, metrics: Metrics): RequestHandler {
  // The response line's fields are fixed (below) and none is a secret, so it skips the redaction pass: the logger's
  // wildcard paths (server/logger.ts) walk every field of every line they see, ≈2 µs per request (bench/response-line.ts).
  const responseLine = logger.child({}, { redact: [] });
  return function requestIdAndLoggerMiddleware(req, res, next) {
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && CALLER_ID.test(incoming) ? incoming : `req_${randomBase62(24)}`;
    res.setHeader("X-Request-Id", requestId);
    const span = serverSpanOf(req);
    const traceId = span?.spanContext().traceId;
    span?.setAttribute("coinplane.request_id", requestId);
    req.ctx = new ChainContext(requestId, surfaceOf(req.path), logger, traceId);
    const started = performance.now();
    res.on("finish", () => {
      const durationMs = performance.now() - started;
      const operation = req.ctx.operation;
      const operationLabel = operation?.operationId ?? (res.statusCode === 404 ? "unmatched" : "other");
      metrics.requestFinished(operationLabel, res.statusCode, durationMs / 1000);
      const rejection = rejectionOf(res);
      if (rejection) metrics.rejected(rejection, operationLabel);
      if (span && operation) {
        span.setAttribute("http.route", operation.pathTemplate);
        span.updateName(`${req.method} ${operation.pathTemplate}`);
      }
      responseLine.info(
        {
          requestId,
          traceId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs,
          organizationId: req.ctx.auth?.organizationId,
          apiKeyId: req.ctx.auth?.apiKeyId,
          // /mcp: the tools this request called (server/http/mcp-endpoint.ts); their REST calls log their own lines.
          mcpTools: res.locals.mcpTools,
        },
        "request",
      );
    });
    next();
  };
}
