// One route match per request: operationLookup matches with our own index, and runs the validator's (slow) route match
// only on the first request of each method and operation, reusing what it left for later requests
// (server/middleware/operation-lookup.ts).
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { operationLookup } from "../../server/middleware/operation-lookup.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { OperationIndex } from "../../server/spec/operations.ts";

const index = new OperationIndex(loadSpec());

type Req = Request & { openapi?: Record<string, unknown> };

function request(method: string, path: string): Req {
  return { method, path, ctx: {} } as unknown as Req;
}

/** A stand-in for the validator's match step: leaves `req.openapi` as express-openapi-validator does. */
function validatorMatch(route: (req: Req) => Record<string, unknown> | undefined) {
  return vi.fn<RequestHandler>((req, _res, next) => {
    const openapi = route(req as Req);
    if (openapi) Object.assign(req, { openapi });
    next();
  });
}

const walletRoute = (req: Req) => ({
  openApiRoute: "/api/v1/wallets/{id}",
  expressRoute: "/api/v1/wallets/:id",
  schema: { operationId: "getWallet" },
  pathParams: { id: decodeURIComponent(req.path.split("/").pop() as string) },
});

function lookupWith(match: RequestHandler) {
  const middleware = operationLookup(index, [match]);
  return (req: Req) =>
    new Promise<unknown>((resolve) =>
      middleware(req, { setHeader: vi.fn() } as unknown as Response, ((e?: unknown) => resolve(e)) as NextFunction),
    );
}

describe("operationLookup", () => {
  it("runs the validator's match on an operation's first request only; later requests get its record with their own parameters", async () => {
    const match = validatorMatch(walletRoute);
    const lookup = lookupWith(match);
    const first = request("GET", "/api/v1/wallets/wal_1");
    expect(await lookup(first)).toBeUndefined();
    expect(first.ctx.operation?.operationId).toBe("getWallet");
    expect(match).toHaveBeenCalledTimes(1);

    const second = request("GET", "/api/v1/wallets/wal%202");
    expect(await lookup(second)).toBeUndefined();
    expect(match).toHaveBeenCalledTimes(1);
    expect(second.ctx.params).toEqual({ id: "wal 2" });
    expect(second.openapi).toEqual({ ...walletRoute(first), pathParams: { id: "wal 2" } });
    expect(second.params).toEqual({ id: "wal 2" });
  });

  it.each([
    ["an unknown path", "GET", "/api/v1/nothing-here", "NOT_FOUND"],
    ["another method on a known path", "DELETE", "/api/v1/wallets/wal_1", "METHOD_NOT_ALLOWED"],
    ["a NUL in a path parameter", "GET", "/api/v1/wallets/a%00b", "VALIDATION_ERROR"],
    ["a path parameter that is not valid percent-encoding", "GET", "/api/v1/wallets/%E0%A4%A", "VALIDATION_ERROR"],
  ])("classifies %s with its own index, without the validator", async (_name, method, path, code) => {
    const match = validatorMatch(walletRoute);
    expect(await lookupWith(match)(request(method, path))).toMatchObject({ code });
    expect(match).not.toHaveBeenCalled();
  });

  it("answers HEAD on a GET operation and leaves it to the validator's verdict (no schema for HEAD) every time", async () => {
    const match = validatorMatch(() => undefined);
    const lookup = lookupWith(match);
    for (let i = 0; i < 2; i++) {
      const req = request("HEAD", "/api/v1/wallets/wal_1");
      expect(await lookup(req)).toBeUndefined();
      expect(req.ctx.operation?.operationId).toBe("getWallet");
      expect(req.openapi).toBeUndefined();
    }
    expect(match).toHaveBeenCalledTimes(1);
  });
});
