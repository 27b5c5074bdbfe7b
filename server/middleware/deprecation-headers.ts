import type { RequestHandler } from "express";

/**
 * Every response of a deprecated operation (docs/compatibility.md) says so: `Deprecation` (RFC 9745, a structured-field
 * date `@<unix seconds>`: when the operation was or will be deprecated) and `Sunset` (RFC 8594, an HTTP-date: when it
 * may stop answering). Set before anything else answers, so errors, replays and rate-limit answers carry them too.
 * Runs after operationLookup (it reads the request's operation); a live operation costs one property read.
 */
export function deprecationHeaders(): RequestHandler {
  return function deprecationHeadersMiddleware(req, res, next) {
    const deprecation = req.ctx.operation?.deprecation;
    if (deprecation) {
      res.setHeader("Deprecation", `@${Math.floor(deprecation.deprecatedAt.getTime() / 1000)}`);
      res.setHeader("Sunset", deprecation.sunset.toUTCString());
    }
    next();
  };
}
