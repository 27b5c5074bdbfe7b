// Headers that never depend on the request, set in one step. helmet() sets its dozen security headers through a chain
// of a dozen middleware, each re-deciding a constant on every request; run once at start against a recording response,
// its decisions become a list applied per request (the same names and values, and the same removals).
import type { RequestHandler, Response } from "express";

interface Recorded {
  set: Array<[string, string | number | readonly string[]]>;
  removed: string[];
}

/** Runs `middleware` once against a response that records what it sets and removes. It must decide synchronously and
 * call next(), and read nothing of the request: helmet's fixed configuration does neither. */
function record(middleware: RequestHandler): Recorded {
  const recorded: Recorded = { set: [], removed: [] };
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      recorded.set.push([name, value]);
      return response;
    },
    removeHeader(name: string) {
      recorded.removed.push(name);
    },
  } as unknown as Response;
  let called = false;
  middleware({ headers: {} } as never, response, () => {
    called = true;
  });
  if (!called) throw new Error("staticHeaders: the middleware did not decide synchronously");
  return recorded;
}

/** A middleware that applies what `middleware` decides, decided once. */
export function staticHeaders(middleware: RequestHandler): RequestHandler {
  const { set, removed } = record(middleware);
  return function staticHeadersMiddleware(_req, res, next) {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}
