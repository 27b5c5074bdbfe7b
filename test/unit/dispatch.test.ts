// An operation of the spec without a handler answers 501 NOT_IMPLEMENTED (never a fake success).
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { ServiceError } from "../../server/errors/service-error.ts";
import { InFlightRequests } from "../../server/http/in-flight.ts";
import { dispatch } from "../../server/routes/dispatch.ts";
import type { HandlerDeps } from "../../server/routes/handler.ts";

const request = (operationId: string) => ({ ctx: { operation: { operationId } } }) as unknown as Request;

describe("dispatch", () => {
  it("calls the operation's handler", async () => {
    const handler = vi.fn();
    const next = vi.fn() as unknown as NextFunction;
    await dispatch({ getHealth: handler }, {} as HandlerDeps, new InFlightRequests())(request("getHealth"), {} as Response, next);
    expect(handler).toHaveBeenCalledOnce();
    expect(next).not.toHaveBeenCalled();
  });

  it("answers NOT_IMPLEMENTED for an operation without a handler", async () => {
    const next = vi.fn();
    await dispatch({}, {} as HandlerDeps, new InFlightRequests())(request("getHealth"), {} as Response, next as unknown as NextFunction);
    const error = next.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: "NOT_IMPLEMENTED", status: 501 });
  });

  it("passes a handler's error to the error middleware", async () => {
    const boom = new ServiceError("NOT_FOUND", "nope");
    const next = vi.fn();
    await dispatch({ getHealth: async () => Promise.reject(boom) }, {} as HandlerDeps, new InFlightRequests())(
      request("getHealth"),
      {} as Response,
      next as unknown as NextFunction,
    );
    expect(next).toHaveBeenCalledWith(boom);
  });
});

describe("in-flight tracking", () => {
  it("counts a handler until it settles, so shutdown can wait for work whose client has gone", async () => {
    const inFlight = new InFlightRequests();
    let finish: () => void = () => {};
    const slow = () => new Promise<void>((resolve) => (finish = resolve));
    const running = dispatch({ getHealth: slow }, {} as HandlerDeps, inFlight)(request("getHealth"), {} as Response, vi.fn());
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
