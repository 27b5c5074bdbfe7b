import type { RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import { fingerprintRequest, parseIdempotencyKey } from "../idempotency/idempotency-key.ts";

/** Reads the Idempotency-Key (required, optional or not taken, per the spec) and fingerprints the request. The key is
 * reserved, replayed or refused by the handler's unit of work (server/db/unit-of-work/run-unit.ts), in its transaction. */
export function idempotency(): RequestHandler {
  return function idempotencyMiddleware(req, _res, next) {
    const { operation, auth } = req.ctx;
    if (!operation || !auth || operation.idempotency === "none") return next();
    const raw = req.get("idempotency-key");
    if (raw === undefined) {
      if (operation.idempotency === "required") {
        return next(
          new ServiceError("IDEMPOTENCY_KEY_REQUIRED", "This operation requires an Idempotency-Key header", {
            errors: [{ path: "/headers/idempotency-key", message: "is required" }],
          }),
        );
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
    req.ctx.idempotency = {
      organizationId: auth.organizationId,
      apiKeyId: auth.apiKeyId,
      method: req.method,
      path: req.path,
      key,
      fingerprint: fingerprintRequest(req.method, req.path, req.body),
    };
    next();
  };
}
