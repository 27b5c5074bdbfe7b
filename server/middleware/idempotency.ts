import type { RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import { fingerprintRequest, parseIdempotencyKey } from "../idempotency/idempotency-key.ts";
import type { IdempotencyStore } from "../idempotency/idempotency-store.ts";

/** Reserves the Idempotency-Key, or answers with the stored replay, 409 in progress, or 422 reused. */
export function idempotency(store: IdempotencyStore): RequestHandler {
  return async function idempotencyMiddleware(req, res, next) {
    const { operation, auth } = req.ctx;
    if (!operation || !auth || operation.idempotency === "none") return next();
    const raw = req.get("idempotency-key");
    if (raw === undefined) {
      if (operation.idempotency === "required") {
        return next(new ServiceError("IDEMPOTENCY_KEY_REQUIRED", "This operation requires an Idempotency-Key header"));
      }
      return next();
    }
    const key = parseIdempotencyKey(raw);
    if (key === null) {
      return next(
        new ServiceError("VALIDATION_ERROR", "Idempotency-Key must be 1–255 printable ASCII characters", {
          errors: [{ path: "/headers/idempotency-key", message: "must be 1–255 printable ASCII characters" }],
        }),
      );
    }
    try {
      const outcome = await store.reserve({
        organizationId: auth.organizationId,
        apiKeyId: auth.apiKeyId,
        method: req.method,
        path: req.path,
        key,
        fingerprint: fingerprintRequest(req.method, req.path, req.body),
      });
      switch (outcome.kind) {
        case "reserved":
          req.ctx.idempotency = outcome.reservation;
          return next();
        case "replay":
          res.setHeader("Idempotent-Replayed", "true");
          // The stored bytes as they were first sent (validated then); no parse and re-serialise on the replay path.
          res.status(outcome.response.status).type(outcome.response.contentType);
          res.send(outcome.response.body);
          return;
        case "in_progress":
          return next(
            new ServiceError("IDEMPOTENCY_IN_PROGRESS", "A request with this Idempotency-Key is still being processed; retry later", {
              retryAfterSeconds: 1,
            }),
          );
        case "mismatch":
          return next(new ServiceError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used with a different request"));
      }
    } catch (error) {
      next(error);
    }
  };
}
