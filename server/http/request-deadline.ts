// The documented maximum duration of a request (REQUEST_TIMEOUT_MS, default 30 s). Every I/O under it has its own
// shorter bound (server/config.ts `database`, the Redis and provider timeouts), so this is the backstop: a request still
// unanswered then gets 503 SERVICE_UNAVAILABLE with Retry-After. Nothing is stored for that answer; a write that still
// commits afterwards stores its own final outcome, which a retry with the same Idempotency-Key replays.
import type { RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import { renderError } from "../middleware/error-handler.ts";

export function requestDeadline(ms: number): RequestHandler {
  return function requestDeadlineMiddleware(req, res, next) {
    const timer = setTimeout(() => {
      if (res.headersSent || res.writableEnded) return;
      const error = new ServiceError("SERVICE_UNAVAILABLE", `The request did not complete within ${ms} ms; retry`, {
        retryAfterSeconds: 2,
      });
      req.ctx?.log?.warn({ code: error.code, timeoutMs: ms }, "request deadline exceeded");
      res.locals.errorRendered = true;
      const { contentType, body } = renderError(req, error);
      res.setHeader("Retry-After", "2");
      res.status(503).type(contentType).send(JSON.stringify(body));
    }, ms);
    timer.unref();
    const clear = () => clearTimeout(timer);
    res.once("finish", clear);
    res.once("close", clear);
    next();
  };
}
