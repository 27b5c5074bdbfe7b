import type { Request, RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import type { OperationIndex, OperationMatch } from "../spec/operations.ts";

/** What the validator's route match leaves on the request (express-openapi-validator's `req.openapi`); its request
 * validation reads it. Everything but `pathParams` is the same for every request of one operation. */
interface ValidatorMatch {
  openApiRoute?: string;
  pathParams?: Record<string, string>;
  [field: string]: unknown;
}

type WithValidatorMatch = Request & { openapi?: ValidatorMatch };

/**
 * The request's spec operation, matched once per request by our own index (server/spec/operations.ts): 404 for an
 * unknown path, 405 (with Allow) for another method, 400 for a path parameter that is not valid percent-encoding or
 * decodes to NUL. `req.ctx.operation` is then reused by every later step.
 *
 * The validator's request validation reads its own route match (`req.openapi`). Its matcher walks every path of the
 * spec on every request (compiling or looking up a regexp per path), so it runs only on the first request of each
 * method and operation: what it leaves there is kept, and later requests get the same record with their own path
 * parameters — the validator validates them exactly as if it had matched them itself.
 */
export function operationLookup(index: OperationIndex, validatorMatch: RequestHandler[]): RequestHandler {
  /** Per `METHOD operationId`: the validator's record without path parameters, or null where it matched nothing
   * (HEAD on a GET operation: the validator has no schema for HEAD and leaves the request unvalidated). */
  const records = new Map<string, ValidatorMatch | null>();

  const learn = (req: WithValidatorMatch, res: Parameters<RequestHandler>[1], key: string, done: () => void): void => {
    const run = (i: number): void => {
      const step = validatorMatch[i];
      if (!step) {
        const { pathParams: _own, ...record } = req.openapi ?? {};
        records.set(key, req.openapi?.openApiRoute ? record : null);
        done();
        return;
      }
      // The validator cannot fail where our index found the operation with decodable parameters; if it ever does, it
      // has not matched, and the request goes on unvalidated by it only until a later request teaches it again.
      step(req, res, (error?: unknown) => (error ? done() : run(i + 1)));
    };
    run(0);
  };

  return function operationLookupMiddleware(req, res, next) {
    const match: OperationMatch = index.match(req.method, req.path);
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
    const key = `${req.method} ${match.operation.operationId}`;
    const record = records.get(key);
    if (record === undefined) return learn(req as WithValidatorMatch, res, key, () => next());
    if (record !== null) {
      (req as WithValidatorMatch).openapi = { ...record, pathParams: match.params };
      req.params = match.params;
    }
    next();
  };
}
