import type { ErrorRequestHandler, Request } from "express";
import { ERROR_CODES } from "../errors/codes.ts";
import type { ServiceError } from "../errors/service-error.ts";
import { toServiceError } from "../errors/to-service-error.ts";
import type { IdempotencyStore } from "../idempotency/idempotency-store.ts";

/** RFC 9457 problem for /api/v2, `{error, code, requestId}` elsewhere. */
function render(req: Request, error: ServiceError): { contentType: string; body: Record<string, unknown> } {
  const requestId = req.ctx?.requestId ?? "unknown";
  const surface = req.ctx?.surface;
  if (surface === "v2") {
    return {
      contentType: "application/problem+json; charset=utf-8",
      body: {
        type: `https://docs.coinplane.dev/errors/${error.code.toLowerCase()}`,
        title: ERROR_CODES[error.code].title,
        status: error.status,
        detail: error.message,
        instance: req.path,
        code: error.code,
        requestId,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extensions,
      },
    };
  }
  return {
    contentType: "application/json; charset=utf-8",
    body: { error: error.message, code: ERROR_CODES[error.code].v1, requestId, ...(error.errors ? { errors: error.errors } : {}) },
  };
}

/** The one error middleware: logs, renders in the surface's shape, and records the outcome for idempotent requests. */
export function errorHandler(idempotency: IdempotencyStore): ErrorRequestHandler {
  return async function errorHandlerMiddleware(thrown, req, res, _next) {
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
    const { error, unexpected } = toServiceError(thrown);
    if (unexpected) log?.error({ err: thrown }, "unexpected error");
    else if (error.status >= 500)
      log?.warn({ code: error.code, cause: (error.cause as Error | undefined)?.message ?? (thrown as Error)?.message }, "request failed");
    if (res.headersSent) return;
    const { contentType, body } = render(req, error);
    const reservation = req.ctx?.idempotency;
    if (reservation) {
      // Transient failures free the key so a retry executes; any other outcome is the key's final answer.
      const transient = error.status === 429 || error.status === 503 || error.code === "IDEMPOTENCY_IN_PROGRESS";
      try {
        if (transient) await idempotency.release(reservation);
        else await idempotency.complete(reservation, { status: error.status, contentType, body: JSON.stringify(body) });
      } catch (storeError) {
        log?.warn({ err: storeError }, "could not record the idempotent error response");
      }
    }
    if (error.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(error.retryAfterSeconds));
    res.status(error.status).type(contentType).json(body);
  };
}
