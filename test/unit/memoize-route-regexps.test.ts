// The validator's per-request route lookup reuses compiled route regexps (see server/middleware/memoize-route-regexps.ts).
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { memoizeRouteRegexps } from "../../server/middleware/memoize-route-regexps.ts";
import { openapiValidation } from "../../server/middleware/openapi-validator.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";

const validatorRequire = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));

describe("memoizeRouteRegexps", () => {
  it("is installed by the app's validator middleware (the per-request route lookup must hit the memo)", () => {
    openapiValidation(loadSpec(), false);
    const { pathToRegexp } = validatorRequire("path-to-regexp");
    const route = "/api/v2/agent/cards/:cardId";
    expect(pathToRegexp(route, {})).toBe(pathToRegexp(route, {}));
  });

  it("makes the validator's pathToRegexp return one shared compiled route per (route, options)", () => {
    const memo = memoizeRouteRegexps();
    const { pathToRegexp } = validatorRequire("path-to-regexp");
    const first = pathToRegexp("/api/v1/wallets/:id", { sensitive: false, strict: false });
    const again = pathToRegexp("/api/v1/wallets/:id", { sensitive: false, strict: false });
    expect(again).toBe(first);
    expect(memo.has(`/api/v1/wallets/:id\u0000${JSON.stringify({ sensitive: false, strict: false })}`)).toBe(true);
    expect(first.regexp.exec("/api/v1/wallets/wal_1")?.[1]).toBe("wal_1");
    // Shared regexps stay stateless: a second exec matches the same way.
    expect(first.regexp.exec("/api/v1/wallets/wal_2")?.[1]).toBe("wal_2");
    expect(pathToRegexp("/api/v1/wallets/:id", { sensitive: true, strict: false })).not.toBe(first);
    expect(memoizeRouteRegexps()).toBe(memo);
  });
});
