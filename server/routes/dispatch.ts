import type { RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import type { InFlightRequests } from "../http/in-flight.ts";
import type { HandlerDeps, HandlerTable } from "./handler.ts";

/** Calls the handler of the request's operation. Operations in the spec without a handler answer 501. */
export function dispatch(handlers: HandlerTable, deps: HandlerDeps, inFlight: InFlightRequests): RequestHandler {
  return async function dispatchMiddleware(req, res, next) {
    const operation = req.ctx.operation;
    const handler = operation && handlers[operation.operationId as keyof HandlerTable];
    if (!handler) return next(new ServiceError("NOT_IMPLEMENTED", "This operation is specified but not implemented yet"));
    try {
      // Tracked until it settles, so shutdown never closes the database under a handler whose client has gone.
      await inFlight.track(async () => handler(req, res, deps));
    } catch (error) {
      next(error);
    }
  };
}
