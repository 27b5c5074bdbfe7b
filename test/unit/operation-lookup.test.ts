// One route match per request: operationLookup takes the operation from the validator's match (req.openapi) and runs
// its own index only when the validator matched nothing usable (server/middleware/operation-lookup.ts).
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { operationLookup } from "../../server/middleware/operation-lookup.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { OperationIndex } from "../../server/spec/operations.ts";

const index = new OperationIndex(loadSpec());

function request(method: string, path: string): Request {
  return { method, path, ctx: {} } as unknown as Request;
}

/** A stand-in for the validator's match step: leaves `req.openapi` as express-openapi-validator does, or fails. */
const validatorMatch =
  (openapi: { openApiRoute: string; pathParams: Record<string, string> } | undefined, error?: Error): RequestHandler =>
  (req, _res, next) => {
    if (openapi) Object.assign(req, { openapi });
    next(error);
  };

async function lookup(req: Request, match: RequestHandler) {
  const res = { setHeader: vi.fn() } as unknown as Response;
  return new Promise<unknown>((resolve) => operationLookup(index, [match])(req, res, ((e?: unknown) => resolve(e)) as NextFunction));
}

describe("operationLookup", () => {
  it("takes the operation and parameters from the validator's match without matching again", async () => {
    const spy = vi.spyOn(index, "match");
    const req = request("GET", "/api/v1/wallets/wal_1");
    const error = await lookup(req, validatorMatch({ openApiRoute: "/api/v1/wallets/{id}", pathParams: { id: "wal_1" } }));
    expect(error).toBeUndefined();
    expect(req.ctx.operation?.operationId).toBe("getWallet");
    expect(req.ctx.params).toEqual({ id: "wal_1" });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it.each([
    ["an unknown path", "GET", "/api/v1/nothing-here", undefined, undefined, "NOT_FOUND"],
    ["another method on a known path", "DELETE", "/api/v1/wallets/wal_1", undefined, undefined, "METHOD_NOT_ALLOWED"],
    [
      "a NUL in a path parameter the validator decoded",
      "GET",
      "/api/v1/wallets/a%00b",
      { openApiRoute: "/api/v1/wallets/{id}", pathParams: { id: "a\0b" } },
      undefined,
      "VALIDATION_ERROR",
    ],
    [
      "a path parameter the validator could not decode",
      "GET",
      "/api/v1/wallets/%E0%A4%A",
      undefined,
      new Error("malformed uri'"),
      "VALIDATION_ERROR",
    ],
  ])("classifies %s with its own index", async (_name, method, path, openapi, failure, code) => {
    const error = await lookup(request(method, path), validatorMatch(openapi, failure));
    expect(error).toMatchObject({ code });
  });

  it("answers HEAD on a GET operation (the validator has no schema for HEAD)", async () => {
    const req = request("HEAD", "/api/v1/wallets/wal_1");
    expect(await lookup(req, validatorMatch(undefined))).toBeUndefined();
    expect(req.ctx.operation?.operationId).toBe("getWallet");
  });
});
