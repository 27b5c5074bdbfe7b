import type { Request, RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import type { OperationIndex } from "../spec/operations.ts";

/** What the validator's route match left on the request (express-openapi-validator's `req.openapi`). */
interface ValidatorMatch {
  openApiRoute?: string;
  pathParams?: Record<string, string>;
}

const hasNul = (params: Record<string, string>) => Object.values(params).some((value) => value.includes("\0"));

/**
 * The request's spec operation, taken from the validator's route match (`match` of openapiValidation, run here first):
 * one route match per request. When the validator matched nothing usable — an unknown path (404), a known path with
 * another method (405, with Allow), HEAD on a GET operation, a path parameter that is not valid percent-encoding or
 * decodes to NUL (400) — our own index decides, as the only matcher of those rare requests.
 */
export function operationLookup(index: OperationIndex, validatorMatch: RequestHandler[]): RequestHandler {
  const fromIndex: RequestHandler = (req, res, next) => {
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

  const lookup: RequestHandler = (req, res, next) => {
    const matched = (req as Request & { openapi?: ValidatorMatch }).openapi;
    const operation = matched?.openApiRoute ? index.byRoute(matched.openApiRoute, req.method) : undefined;
    const params = matched?.pathParams ?? {};
    if (!operation || hasNul(params)) return fromIndex(req, res, next);
    req.ctx.operation = operation;
    req.ctx.params = params;
    next();
  };

  // The validator's steps, then ours. Its match throws on a path parameter that is not valid percent-encoding: our
  // index classifies that request too.
  return function operationLookupMiddleware(req, res, next) {
    const run = (i: number): void => {
      const step = validatorMatch[i];
      if (!step) {
        lookup(req, res, next);
        return;
      }
      step(req, res, (error?: unknown) => (error ? fromIndex(req, res, next) : run(i + 1)));
    };
    run(0);
  };
}
