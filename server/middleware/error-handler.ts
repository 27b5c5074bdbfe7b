import type { ErrorRequestHandler, Request } from "express";
import { renderErrorBody } from "../../sdk/src/protocol/error-body.ts";
import type { ServiceError } from "../errors/service-error.ts";
import { toServiceError } from "../errors/to-service-error.ts";

/** RFC 9457 problem for /api/v2, `{error, code, requestId}` elsewhere (sdk/src/protocol/error-body.ts, the mock's too). */
export function renderError(req: Request, error: ServiceError): { contentType: string; body: Record<string, unknown> } {
  return renderErrorBody(error, { problem: req.ctx?.surface === "v2", path: req.path, requestId: req.ctx?.requestId ?? "unknown" });
}

/** The one error middleware: logs and renders in the surface's shape. (A write's unit of work has already stored its
 * business errors as the key's answer; see server/db/unit-of-work/idempotency-claim.ts.) */
export function errorHandler(): ErrorRequestHandler {
  return function errorHandlerMiddleware(thrown, req, res, _next) {
    const log = req.ctx?.log;
    if (res.locals.errorRendered) {
      // Our own error response failed response validation (tests only): report it without re-entering the validator.
      log?.error({ err: thrown }, "error response failed validation");
      if (!res.headersSent)
        res
          .status(500)
          .type("application/json")
          .send(JSON.stringify({ error: "response validation failed", code: "internal_error", requestId: req.ctx?.requestId }));
      return;
    }
    res.locals.errorRendered = true;
    const { error, unexpected } = toServiceError(thrown, { unavailableCodes: req.ctx?.operation?.unavailableCodes });
    if (unexpected) log?.error({ err: thrown }, "unexpected error");
    else if (error.status >= 500)
      log?.warn({ code: error.code, cause: (error.cause as Error | undefined)?.message ?? (thrown as Error)?.message }, "request failed");
    if (res.headersSent) return;
    const { contentType, body } = renderError(req, error);
    if (error.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(error.retryAfterSeconds));
    res.status(error.status).type(contentType).json(body);
  };
}
