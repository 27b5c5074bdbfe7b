import type { RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import type { OperationIndex } from "../spec/operations.ts";

/** Finds the spec operation of the request: unknown path → 404, known path with another method → 405, a path
 * parameter that is not valid percent-encoding → 400. */
export function operationLookup(index: OperationIndex): RequestHandler {
  return function operationLookupMiddleware(req, res, next) {
    const match = index.match(req.method, req.path);
    if (match.kind === "not_found") return next(new ServiceError("NOT_FOUND", `No route for ${req.method} ${req.path}`));
    if (match.kind === "method_not_allowed") {
      res.setHeader("Allow", match.allowed.join(", "));
      return next(new ServiceError("METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${req.path}`));
    }
    if (match.kind === "malformed_path") {
      return next(
        new ServiceError("VALIDATION_ERROR", `/params/${match.param} is not valid percent-encoded text`, {
          errors: [{ path: `/params/${match.param}`, message: "must be valid percent-encoded UTF-8 without NUL characters" }],
        }),
      );
    }
    req.ctx.operation = match.operation;
    req.ctx.params = match.params;
    next();
  };
}
