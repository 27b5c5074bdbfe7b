import type { RequestHandler } from "express";

/**
 * Answers the body the parser refused (`req.ctx.bodyError`: malformed JSON → 400, over BODY_LIMIT_BYTES → 413,
 * unstorable text → 400). It runs after authentication and the rate limit, so the answer is the key's like any other:
 * an unauthenticated caller gets 401 first, and the 400/413 carries the rate-limit headers the contract promises on
 * every answer to a key. An operation that declares no request body ignores whatever body was sent.
 */
export function bodyErrors(): RequestHandler {
  return function bodyErrorsMiddleware(req, _res, next) {
    const error = req.ctx.bodyError;
    if (error === undefined) return next();
    if (req.ctx.operation?.takesBody) return next(error);
    req.body = undefined;
    next();
  };
}
