import type { Request, RequestHandler, Response } from "express";
import type { AuthContext } from "../context.ts";
import type { Outcome } from "../db/unit-of-work/index.ts";
import { ServiceError } from "../errors/service-error.ts";
import type { InFlightRequests } from "../http/in-flight.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { sendJson } from "../http/send-text.ts";
import { clientAddress } from "../rate-limit/client-address.ts";
import type { Operation } from "../spec/operations.ts";
import type { Answered, HandlerDeps, OperationId, RequestFacts, RouteContext, Routes } from "./route.ts";

const ANSWERED: Answered = { answered: true };

type UntypedHandler = (context: RouteContext<OperationId>) => Promise<Outcome | Answered> | Outcome | Answered;

/** The query as the contract types it: the validator has checked integer parameters are plain decimals (no coercion). */
function typedQuery(req: Request, operation: Operation): Record<string, unknown> {
  const query: Record<string, unknown> = req.query;
  if (operation.integerQuery.length === 0) return query;
  const typed = { ...query };
  for (const name of operation.integerQuery) if (typeof typed[name] === "string") typed[name] = Number(typed[name]);
  return typed;
}

function authOf(req: Request): AuthContext {
  if (!req.ctx.auth) throw new ServiceError("UNAUTHORIZED", "Missing or invalid API key");
  return req.ctx.auth;
}

function requestFacts(req: Request, deps: HandlerDeps): RequestFacts {
  const host = req.hostname;
  return {
    clientAddress: clientAddress(req),
    secure: req.secure,
    loopback: host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host === "::1",
    origin: deps.config.people.publicUrl ? new URL(deps.config.people.publicUrl).origin : `${req.protocol}://${req.get("host") ?? host}`,
  };
}

/** The handler's view of the request. The casts live here, once: the validator has checked every part against the
 * operation the route is registered for, which is what the handler's types promise. */
function contextOf<K extends OperationId>(req: Request, res: Response, operation: Operation, deps: HandlerDeps): RouteContext<K> {
  return {
    // Express types a parsed body as `any`; the validator has checked it against this operation's request body.
    body: req.body,
    path: req.ctx.params as RouteContext<K>["path"],
    query: typedQuery(req, operation) as RouteContext<K>["query"],
    header: (name) => req.get(name) as never,
    get request() {
      return requestFacts(req, deps);
    },
    get auth() {
      return authOf(req);
    },
    idempotent: req.ctx.idempotency !== undefined,
    idempotencyScope: idempotencyScopeOf(req.ctx.idempotency),
    requestId: req.ctx.requestId,
    get log() {
      return req.ctx.log;
    },
    deps,
    async respond(work, options) {
      await respondWithUnitOfWork(req, res, deps, work, options);
      return ANSWERED;
    },
  };
}

/** Calls the route of the request's operation and sends its answer. Operations in the spec without a route answer 501. */
export function dispatch(routes: Routes, deps: HandlerDeps, inFlight: InFlightRequests): RequestHandler {
  // Each handler was checked against its own operation's types where it was registered; here they are one table.
  const byOperation = new Map(routes.map((r) => [r.operationId as string, r.handler as unknown as UntypedHandler]));
  return async function dispatchMiddleware(req, res, next) {
    const operation = req.ctx.operation;
    const handler = operation && byOperation.get(operation.operationId);
    if (!operation || !handler) return next(new ServiceError("NOT_IMPLEMENTED", "This operation is specified but not implemented yet"));
    req.ctx.reachedHandler = true;
    try {
      // Tracked until it settles, so shutdown never closes the database under a handler whose client has gone.
      await inFlight.track(async () => {
        const answer = await handler(contextOf(req, res, operation, deps));
        if ("answered" in answer) return;
        for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
        if (answer.body === undefined) res.status(answer.status).end();
        else sendJson(req, res, answer.status, answer.body);
      });
    } catch (error) {
      next(error);
    }
  };
}

/** The Idempotency-Key as one string with the method and path it belongs to (the key alone is the client's choice). */
function idempotencyScopeOf(claim: Request["ctx"]["idempotency"]): string | undefined {
  return claim ? `${claim.method} ${claim.path} ${claim.key}` : undefined;
}
