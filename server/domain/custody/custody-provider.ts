// Custody fails closed: a reviewed custody connection must serve the organization (the simulator only when explicitly
// connected), else 424 PROVIDER_NOT_CONNECTED before anything is read or written (connectProvider). Provider failures
// map to 502, an unreachable provider to 503 SOURCE_NOT_AVAILABLE (nothing changed; retry) — callProvider.
import type { AuthContext } from "../../context.ts";
import {
  afterProviderCall,
  type Outcome,
  type PendingProviderStep,
  type ProviderStep,
  type UnitOfWork,
} from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CustodyApi } from "../../providers/capabilities/custody.ts";
import type { SimulatedCustodyStore } from "../../providers/capabilities/simulated-custody-store.ts";
import type { OperationId, OperationOutcome } from "../../spec/operation-types.ts";
import { connectProvider, type ProviderConnection } from "../providers/connect-provider.ts";

/** The organization's custody connection. Its call context takes the simulator's books on the database itself
 * (`context({ books })`), never inside the request's transaction: none is open across a provider call. */
export type CustodyProvider = ProviderConnection<CustodyApi>;

/** What a custody operation's unit of work returns: its answer, or a provider step ending with it (two transactions). */
export type CustodyOutcome<K extends OperationId> = OperationOutcome<K> | PendingProviderStep<OperationOutcome<K>>;

/** What a custody write takes: the caller and its request (tagged at the HTTP edge), the unit of work, and the
 * simulator's books on the database itself for the provider (called between the unit of work's two transactions). */
export interface CustodyWriteOptions<Request> {
  uow: UnitOfWork;
  books: SimulatedCustodyStore;
  auth: AuthContext;
  request: Request;
  requestId: string;
}

/** One handler per request shape, each given its shape's request and the connected provider. */
export type ShapeHandlers<Request extends { kind: string }, Answer> = {
  [K in Request["kind"]]: (
    options: CustodyWriteOptions<Request>,
    request: Extract<Request, { kind: K }>,
    provider: CustodyProvider,
  ) => Promise<Answer>;
};

/** Both custody writes: connect the provider first (failing closed before anything is read or written), then run the
 * handler of the shape the HTTP edge tagged. */
export async function dispatchCustodyWrite<Request extends { kind: string }, Answer>(
  options: CustodyWriteOptions<Request>,
  handlers: ShapeHandlers<Request, Answer>,
): Promise<Answer> {
  const provider = await connectProvider(options.uow.tx, options.auth, "custody");
  const handler = handlers[options.request.kind as Request["kind"]];
  // The table is keyed by kind, so this handler's shape is the request's own.
  return handler(options, options.request as Extract<Request, { kind: Request["kind"] }>, provider);
}

/** afterProviderCall, with the step's result type kept private to it (the unit of work only passes it on). */
export const custodyStep = <R, O extends Outcome>(step: Omit<ProviderStep<R, O>, "kind">): PendingProviderStep<O> =>
  afterProviderCall(step);

export const conflict = (message: string) => new ServiceError("CUSTODY_STATE_CONFLICT", message);
