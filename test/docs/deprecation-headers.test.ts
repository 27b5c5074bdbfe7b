// Deprecated operations say so on every response (docs/compatibility.md): `Deprecation: @<unix seconds>` (RFC 9745)
// and `Sunset: <HTTP-date>` (RFC 8594), from the spec's `deprecated: true`, `x-deprecated-at` and `x-sunset`. No
// operation is deprecated today, so the HTTP test serves a copy of the spec with one marked, through the real app.
import type { Request, Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deprecationHeaders } from "../../server/middleware/deprecation-headers.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { deprecationOf, OperationIndex } from "../../server/spec/operations.ts";
import { deref } from "../../server/spec/resolve-ref.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const DEPRECATED_AT = "2026-11-01";
const SUNSET = "2027-05-01";
const DEPRECATION_VALUE = `@${Date.UTC(2026, 10, 1) / 1000}`;
const SUNSET_VALUE = "Sat, 01 May 2027 00:00:00 GMT";

describe("the operation index reads a deprecation", () => {
  it("from deprecated: true with both dates", () => {
    expect(deprecationOf({ operationId: "x", deprecated: true, "x-deprecated-at": DEPRECATED_AT, "x-sunset": SUNSET })).toEqual({
      deprecatedAt: new Date(`${DEPRECATED_AT}T00:00:00Z`),
      sunset: new Date(`${SUNSET}T00:00:00Z`),
    });
    expect(deprecationOf({ operationId: "x" })).toBeUndefined();
  });

  it("refuses a deprecated operation without its dates, with a bad date, or a sunset before the deprecation", () => {
    expect(() => deprecationOf({ operationId: "x", deprecated: true, "x-sunset": SUNSET })).toThrow(/x-deprecated-at/);
    expect(() => deprecationOf({ operationId: "x", deprecated: true, "x-deprecated-at": DEPRECATED_AT, "x-sunset": "soon" })).toThrow(
      /x-sunset/,
    );
    expect(() => deprecationOf({ operationId: "x", deprecated: true, "x-deprecated-at": SUNSET, "x-sunset": DEPRECATED_AT })).toThrow(
      /after/,
    );
  });

  it("leaves every operation of the current spec live (none is deprecated yet)", () => {
    expect(new OperationIndex(loadSpec()).all.filter((op) => op.deprecation)).toEqual([]);
  });
});

describe("deprecationHeaders middleware", () => {
  const run = (operation: unknown) => {
    const headers: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response;
    let nextCalls = 0;
    deprecationHeaders()({ ctx: { operation } } as unknown as Request, res, () => nextCalls++);
    return { headers, nextCalls };
  };

  it("sets both headers for a deprecated operation", () => {
    const deprecation = deprecationOf({ operationId: "x", deprecated: true, "x-deprecated-at": DEPRECATED_AT, "x-sunset": SUNSET });
    expect(run({ operationId: "x", deprecation })).toEqual({
      headers: { Deprecation: DEPRECATION_VALUE, Sunset: SUNSET_VALUE },
      nextCalls: 1,
    });
  });

  it("sets nothing for a live operation or a request without one", () => {
    expect(run({ operationId: "x" })).toEqual({ headers: {}, nextCalls: 1 });
    expect(run(undefined)).toEqual({ headers: {}, nextCalls: 1 });
  });
});

describe("over HTTP, with GET /api/v1/wallets deprecated in the served spec", () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    const spec = loadSpec();
    const operation = (spec.paths["/api/v1/wallets"] as Record<string, Record<string, unknown>>).get as Record<string, unknown>;
    Object.assign(operation, { deprecated: true, "x-deprecated-at": DEPRECATED_AT, "x-sunset": SUNSET });
    // As docs/compatibility.md asks: every response of the deprecated operation declares the two headers (the test
    // server checks each answer against the served spec).
    const signal = { Deprecation: { schema: { type: "string" } }, Sunset: { schema: { type: "string" } } };
    for (const [status, response] of Object.entries(operation.responses as Record<string, Record<string, unknown>>)) {
      const resolved = deref(spec, response);
      (operation.responses as Record<string, unknown>)[status] = { ...resolved, headers: { ...(resolved.headers as object), ...signal } };
    }
    server = await startTestServer({ spec });
    key = (await server.createKey({ scopes: ["wallets:read"] })).key;
  });
  afterAll(() => server?.close());

  it("answers it with Deprecation and Sunset", async () => {
    const res = await fetch(`${server.url}/api/v1/wallets`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe(DEPRECATION_VALUE);
    expect(res.headers.get("sunset")).toBe(SUNSET_VALUE);
  });

  it("errors of the deprecated operation carry them too", async () => {
    const res = await fetch(`${server.url}/api/v1/wallets`);
    expect(res.status).toBe(401);
    expect(res.headers.get("deprecation")).toBe(DEPRECATION_VALUE);
    expect(res.headers.get("sunset")).toBe(SUNSET_VALUE);
  });

  it("other operations, even on the same path, answer without them", async () => {
    const balances = await fetch(`${server.url}/api/v1/balances`, { headers: { authorization: `Bearer ${key}` } });
    expect(balances.status).toBe(200);
    const create = await fetch(`${server.url}/api/v1/wallets`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ chain: "base" }),
    });
    expect(create.status).toBe(403); // wallets:read only: the point is the headers
    for (const res of [balances, create]) {
      expect(res.headers.get("deprecation")).toBeNull();
      expect(res.headers.get("sunset")).toBeNull();
    }
  });
});
