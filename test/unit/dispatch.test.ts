// The route table: an operation's route answers it; an operation of the spec without a route answers 501
// NOT_IMPLEMENTED (never a fake success).
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { ServiceError } from "../../server/errors/service-error.ts";
import { InFlightRequests } from "../../server/http/in-flight.ts";
import { dispatch } from "../../server/routes/dispatch.ts";
import { type HandlerDeps, route } from "../../server/routes/route.ts";

const request = (operationId: string) =>
  ({
    ctx: { operation: { operationId, integerQuery: [] }, params: {} },
    query: {},
    get: () => undefined,
    headers: {},
    method: "GET",
  }) as unknown as Request;

/** A response that records what was sent (the status, and the JSON body as written: server/http/send-text.ts). */
function recordingResponse() {
  const sent: { status?: number; body?: unknown; ended?: boolean } = {};
  const headers = new Map<string, unknown>();
  const res = {
    setHeader: vi.fn((name: string, value: unknown) => headers.set(name.toLowerCase(), value)),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    set statusCode(code: number) {
      sent.status = code;
    },
    status(code: number) {
      sent.status = code;
      return res;
    },
    end(text?: string) {
      if (text === undefined) sent.ended = true;
      else sent.body = JSON.parse(text);
      return res;
    },
  };
  return { res: res as unknown as Response, sent };
}

describe("dispatch", () => {
  it("sends the answer the operation's route returns", async () => {
    const next = vi.fn() as unknown as NextFunction;
    const { res, sent } = recordingResponse();
    const routes = [route("getHealth", () => ({ status: 200, body: { status: "ok" } }))];
    await dispatch(routes, {} as HandlerDeps, new InFlightRequests())(request("getHealth"), res, next);
    expect(sent).toEqual({ status: 200, body: { status: "ok" } });
    expect(next).not.toHaveBeenCalled();
  });

  it("answers NOT_IMPLEMENTED for an operation without a route", async () => {
    const next = vi.fn();
    const routes = [route("getHealth", () => ({ status: 200, body: { status: "ok" } }))];
    await dispatch(routes, {} as HandlerDeps, new InFlightRequests())(
      request("getReadiness"),
      {} as Response,
      next as unknown as NextFunction,
    );
    const error = next.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: "NOT_IMPLEMENTED", status: 501 });
  });

  it("passes a route's error to the error middleware", async () => {
    const boom = new ServiceError("NOT_FOUND", "nope");
    const next = vi.fn();
    const routes = [route("getHealth", async () => Promise.reject(boom))];
    await dispatch(routes, {} as HandlerDeps, new InFlightRequests())(
      request("getHealth"),
      {} as Response,
      next as unknown as NextFunction,
    );
    expect(next).toHaveBeenCalledWith(boom);
  });

  it("refuses a route that reads the caller of an operation without an API key (401, not a crash)", async () => {
    const next = vi.fn();
    const routes = [route("getHealth", ({ auth }) => ({ status: 200, body: { status: auth ? "ok" : "ok" } }))];
    await dispatch(routes, {} as HandlerDeps, new InFlightRequests())(
      request("getHealth"),
      {} as Response,
      next as unknown as NextFunction,
    );
    expect(next.mock.calls[0]?.[0]).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("in-flight tracking", () => {
  it("counts a route until it settles, so shutdown can wait for work whose client has gone", async () => {
    const inFlight = new InFlightRequests();
    let finish: () => void = () => {};
    const slow = route("getHealth", async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      return { status: 200, body: { status: "ok" } };
    });
    const { res } = recordingResponse();
    const running = dispatch([slow], {} as HandlerDeps, inFlight)(request("getHealth"), res, vi.fn());
    expect(inFlight.size).toBe(1);
    let idle = false;
    const waiting = inFlight.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    finish();
    await running;
    await waiting;
    expect(inFlight.size).toBe(0);
  });
});
