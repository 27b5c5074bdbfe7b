// Custody fails closed: a reviewed custody connection must serve the organization (the simulator only when explicitly
// connected), else 424 PROVIDER_NOT_CONNECTED before anything is read or written. Provider failures map to 502, an
// unreachable provider to 503 SOURCE_NOT_AVAILABLE (nothing changed; retry).
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { afterProviderCall, type Outcome, type PendingProviderStep, type ProviderStep } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CustodyApi, CustodyCallContext } from "../../providers/capabilities/custody.ts";
import { ProviderUnavailableError } from "../../providers/capabilities/provider-unavailable.ts";
import { ProviderExecutionError } from "../../providers/provider-adapter.ts";
import { resolveProvider } from "../../providers/resolve-provider.ts";

export interface CustodyProvider {
  api: CustodyApi;
  config: Record<string, unknown>;
  slug: string;
  connectionId: string | null;
  simulated: boolean;
  /** The call context: the database itself (never the request's transaction; none is open across a provider call). */
  ctx(db: Queryable): CustodyCallContext;
}

export async function resolveCustodyProvider(db: Queryable, auth: AuthContext): Promise<CustodyProvider> {
  const resolved = await resolveProvider({ db, auth, category: "custody", sandboxFallback: false });
  const api = resolved.adapter.capabilities?.custody;
  if (!api) throw new ServiceError("SERVER_MISCONFIGURED", `Provider "${resolved.adapter.slug}" does not implement custody`);
  return {
    api,
    config: resolved.config,
    slug: resolved.adapter.slug,
    connectionId: resolved.connectionId,
    simulated: resolved.simulated,
    ctx: (db) => ({ config: resolved.config, db, now: new Date() }),
  };
}

/** Calls the custody provider. `unreachable` is the code an unreachable provider answers (SOURCE_NOT_AVAILABLE, or
 * PROVIDER_EXECUTION_FAILED on endpoints that document no 503 for it). */
export async function callCustody<T>(
  what: string,
  call: () => Promise<T>,
  unreachable: "SOURCE_NOT_AVAILABLE" | "PROVIDER_EXECUTION_FAILED" = "SOURCE_NOT_AVAILABLE",
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderExecutionError) {
      throw new ServiceError("PROVIDER_EXECUTION_FAILED", `The custody provider failed to ${what}: ${error.message}`, { cause: error });
    }
    if (error instanceof ProviderUnavailableError) {
      throw new ServiceError(unreachable, `The custody provider could not be reached to ${what}; nothing changed, retry`, {
        cause: error,
        ...(unreachable === "SOURCE_NOT_AVAILABLE" ? { retryAfterSeconds: 5 } : {}),
      });
    }
    throw error;
  }
}

/** What a custody write's unit of work returns: the answer, or a provider step (two transactions). */
export type CustodyOutcome = Outcome | PendingProviderStep;

/** afterProviderCall, typed for respondWithUnitOfWork, whose work type accepts only PendingProviderStep. */
export const custodyStep = <R>(step: Omit<ProviderStep<R>, "kind">): PendingProviderStep => afterProviderCall(step);

export const conflict = (message: string) => new ServiceError("CUSTODY_STATE_CONFLICT", message);
