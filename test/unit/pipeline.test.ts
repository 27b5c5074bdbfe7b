// server/http/pipeline.ts keeps the contract of Express's layers for the steps it runs as one: steps in order, next()
// to the following step and after the last out of the pipeline, next(error) / a throw / a rejected promise out with
// the error and no later step run.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { pipeline } from "../../server/http/pipeline.ts";

const req = {} as Request;
const res = {} as Response;

/** Runs the pipeline and resolves with what it passed to its own next (undefined: continued). */
function run(steps: RequestHandler[]): Promise<unknown> {
  return new Promise((resolve) => {
    pipeline(steps)(req, res, ((error?: unknown) => resolve(error)) as NextFunction);
  });
}

describe("pipeline", () => {
  it("runs the steps in order and continues after the last", async () => {
    const order: number[] = [];
    const step =
      (n: number): RequestHandler =>
      (_req, _res, next) => {
        order.push(n);
        next();
      };
    expect(await run([step(1), step(2), step(3)])).toBeUndefined();
    expect(order).toEqual([1, 2, 3]);
  });

  it("waits for a step that calls next later (after an await)", async () => {
    const order: string[] = [];
    const later: RequestHandler = async (_req, _res, next) => {
      await new Promise((r) => setTimeout(r, 5));
      order.push("async");
      next();
    };
    const after: RequestHandler = (_req, _res, next) => {
      order.push("after");
      next();
    };
    expect(await run([later, after])).toBeUndefined();
    expect(order).toEqual(["async", "after"]);
  });

  it.each([
    { how: "next(error)", step: ((_req, _res, next) => next(new Error("boom"))) as RequestHandler },
    {
      how: "a throw",
      step: (() => {
        throw new Error("boom");
      }) as RequestHandler,
    },
    { how: "a rejected promise", step: (async () => Promise.reject(new Error("boom"))) as RequestHandler },
  ])("leaves with the error of $how and runs no later step", async ({ step }) => {
    const later = vi.fn();
    const error = await run([step, later]);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("boom");
    expect(later).not.toHaveBeenCalled();
  });

  it("an answer without next ends the walk: no later step, nothing passed on", async () => {
    const later = vi.fn();
    const done = vi.fn();
    pipeline([(_req, _res) => {}, later])(req, res, done as unknown as NextFunction);
    await new Promise((r) => setTimeout(r, 5));
    expect(later).not.toHaveBeenCalled();
    expect(done).not.toHaveBeenCalled();
  });
});
