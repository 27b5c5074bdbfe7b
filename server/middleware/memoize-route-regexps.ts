// express-openapi-validator 5.6 finds a request's route by compiling `pathToRegexp(route)` for every route of the spec,
// in order, on every request (openapi.metadata.js lookupRoute); with ~60 paths that parse-and-compile was a visible
// share of a GET's CPU in `npm run bench:profile`. pathToRegexp is pure and its regexps carry no /g or /y state, so
// the same (route, options) can share one compiled result. This wraps the export the validator calls (it reads
// `path_to_regexp_1.pathToRegexp` at each call) with a bounded memo; express's router calls it only at startup.
import { createRequire } from "node:module";

type PathToRegexp = (path: unknown, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };

const MAX_ENTRIES = 1_000;
const validatorRequire = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
const pathToRegexpModule = validatorRequire("path-to-regexp") as { pathToRegexp: PathToRegexp & { memoized?: boolean } };

/** Installs the memo once per process; returns the cache so a test can see it being used. */
export function memoizeRouteRegexps(): Map<string, ReturnType<PathToRegexp>> {
  const existing = (pathToRegexpModule as { memo?: Map<string, ReturnType<PathToRegexp>> }).memo;
  if (existing) return existing;
  const original = pathToRegexpModule.pathToRegexp;
  const memo = new Map<string, ReturnType<PathToRegexp>>();
  const memoized: PathToRegexp = (path, options = {}) => {
    // Arrays and token data are rare (router internals); only plain string routes are cached.
    if (typeof path !== "string") return original(path, options);
    const key = `${path}\u0000${JSON.stringify(options)}`;
    let compiled = memo.get(key);
    if (!compiled) {
      compiled = original(path, options);
      if (memo.size < MAX_ENTRIES) memo.set(key, compiled);
    }
    return compiled;
  };
  pathToRegexpModule.pathToRegexp = memoized;
  (pathToRegexpModule as { memo?: Map<string, ReturnType<PathToRegexp>> }).memo = memo;
  return memo;
}
