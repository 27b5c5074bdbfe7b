// Runs a fixed list of middleware as one Express layer. Express's router walks every layer of the app for each request
// (match, params, trace check, the layer's try/catch and promise check); with a layer per step, that walk cost a request
// ≈0.06 ms of CPU — a tenth of a GET — in `npm run bench:profile` (issue 39). The steps and their order are the
// same; this walks them with a counter instead.
//
// The contract kept from Express's layers (router/lib/layer.js handleRequest): a step gets (req, res, next); next() runs
// the following step, next(error) leaves the pipeline with that error (Express then skips to the error handler); a step
// that throws or returns a rejected promise is treated as next(error); after the last step, next() continues in the app.
import type { NextFunction, Request, RequestHandler, Response } from "express";

export function pipeline(steps: readonly RequestHandler[]): RequestHandler {
  const count = steps.length;
  return function pipelineMiddleware(req: Request, res: Response, done: NextFunction) {
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error !== undefined && error !== null) return done(error);
      if (index === count) return done();
      const step = steps[index++] as RequestHandler;
      try {
        const returned = step(req, res, next) as unknown;
        if (returned instanceof Promise) returned.then(undefined, (rejection: unknown) => done(rejection ?? new Error("Rejected promise")));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
