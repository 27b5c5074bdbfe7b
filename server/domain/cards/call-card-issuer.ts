import type { Outcome, PendingProviderStep, UnitOfWork } from "../../db/unit-of-work.ts";
import { afterProviderCall } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { CardIssuerError } from "../../providers/card-issuer.ts";
import { ProviderExecutionError } from "../../providers/provider-adapter.ts";

/** Calls the card issuer and turns its failures into the documented problems. */
export async function callCardIssuer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CardIssuerError) {
      throw new ServiceError(error.code, error.message, error.code === "PROVIDER_RATE_LIMITED" ? { retryAfterSeconds: 1 } : {});
    }
    if (error instanceof ProviderExecutionError) {
      throw new ServiceError("PROVIDER_EXECUTION_FAILED", `The card issuer failed: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Ends a card write's first transaction: every card write needs two transactions because the issuer is a provider and
 * no transaction stays open across its call. The first one (the unit of work) commits the write's records as its
 * intent — checked, locked and written there, so a failed record or ledger write and a transient conflict are answered
 * before the issuer is ever called — then the issuer is called with the intent's id as idempotency key, and a second
 * transaction confirms the intent (`confirm`) or, when the issuer refused, compensates it (`compensate`: the request
 * then leaves nothing behind, as when the whole write was one transaction).
 */
export function afterCardIssuerCall<R>(step: {
  call: () => Promise<R>;
  confirm: (uow: UnitOfWork, result: R) => Promise<Outcome>;
  compensate: (uow: UnitOfWork) => Promise<void>;
}): PendingProviderStep {
  return afterProviderCall<R>({
    call: () => callCardIssuer(step.call),
    onResult: step.confirm,
    onFailure: (uow) => step.compensate(uow),
  });
}
