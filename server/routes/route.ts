// The typed route table: each operation of the contract is registered by its operationId with a handler typed by the
// generated `operations[operationId]` — its path, query and header parameters, its body, and every answer it declares.
//
//   route("getWallet", async ({ path, auth, deps }) => ({ status: 200, body: await getWallet(deps.db.kysely, { auth, id: path.id }) }))
//
// Reading a field the contract lacks, or returning a status or body it does not declare, does not compile
// (test/types/route.test-d.ts). Writes answer through `respond`, the request's unit of work, whose work is typed by the
// same operation. Errors are thrown as ServiceError and rendered in the surface's shape by the error middleware.
import type { Config } from "../config.ts";
import type { AuthContext } from "../context.ts";
import type { Database } from "../db/open-database.ts";
import type { PendingProviderStep, UnitOfWork, UnitOfWorkOptions } from "../db/unit-of-work/index.ts";
import type { Logger } from "../logger.ts";
import type { HeaderParams, OperationId, OperationOutcome, PathParams, QueryParams, RequestBody } from "../spec/operation-types.ts";

export type { OperationId, OperationOutcome };

export interface HandlerDeps {
  db: Database;
  config: Config;
}

/** What a few handlers need of the HTTP request itself (the client address for the audit log, https for the cookie). */
export interface RequestFacts {
  clientAddress: string;
  /** The request came over https (directly, or through a proxy the deployment trusts). */
  secure: boolean;
  /** The request's host is loopback (http://localhost counts as secure for browsers' cookies). */
  loopback: boolean;
  /** PUBLIC_URL's origin, else this request's own: where invitation links point. */
  origin: string;
}

/** The answer has been sent already (by `respond`: fresh, or replayed from the Idempotency-Key's record). */
export interface Answered {
  readonly answered: true;
}

export type RespondOptions = Pick<UnitOfWorkOptions, "keyCheckedAtClose">;

/** A write's work in its unit of work: the answer, or a provider step that ends with it (two transactions). */
export type Work<K extends OperationId> = (uow: UnitOfWork) => Promise<OperationOutcome<K> | PendingProviderStep<OperationOutcome<K>>>;

export interface RouteContext<K extends OperationId> {
  body: RequestBody<K>;
  path: PathParams<K>;
  query: QueryParams<K>;
  /** A header parameter the operation declares (validated against the contract). */
  header<Name extends keyof HeaderParams<K> & string>(name: Name): HeaderParams<K>[Name] | undefined;
  /** The caller's API key; only operations secured by an API key have one (any other operation throws 401). */
  readonly auth: AuthContext;
  readonly request: RequestFacts;
  /** The request carries an Idempotency-Key (its answer is stored and replayed). */
  idempotent: boolean;
  /** The Idempotency-Key with the method and path it is scoped to, when the request sent one (a spend records it). */
  idempotencyScope?: string;
  requestId: string;
  log: Logger;
  deps: HandlerDeps;
  /** Runs the request's unit of work (server/db/unit-of-work/run-unit.ts) and sends what it decided. `keyCheckedAtClose`: the
   * work writes nothing and calls no one before its closing statement, so its Idempotency-Key may be checked by that
   * statement alone (server/db/unit-of-work/run-unit.ts, "Checked at close"). */
  respond(work: Work<K>, options?: RespondOptions): Promise<Answered>;
}

export type RouteHandler<K extends OperationId> = (
  context: RouteContext<K>,
) => Promise<OperationOutcome<K> | Answered> | OperationOutcome<K> | Answered;

export interface Route<K extends OperationId = OperationId> {
  operationId: K;
  handler: RouteHandler<K>;
}

/** Registers the handler of one operation. */
export function route<K extends OperationId>(operationId: K, handler: NoInfer<RouteHandler<K>>): Route<K> {
  return { operationId, handler };
}

/** A list of routes of different operations (each entry keeps its own operation's types). */
export type Routes = { [K in OperationId]: Route<K> }[OperationId][];
