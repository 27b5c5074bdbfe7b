import type { Outcome, PendingProviderStep, UnitOfWork } from "../../db/unit-of-work.ts";
import { afterProviderCall } from "../../db/unit-of-work.ts";
import { callProvider } from "../providers/provider-call.ts";

/**
 * Ends a card write's first transaction: every card write needs two transactions because the issuer is a provider and
 * no transaction stays open across its call. The first one (the unit of work) commits the write's records as its
 * intent — checked, locked and written there, so a failed record or ledger write and a transient conflict are answered
 * before the issuer is ever called — then the issuer is called with the intent's id as idempotency key, and a second
 * transaction confirms the intent (`confirm`) or, when the issuer refused, compensates it (`compensate`: the request
 * then leaves nothing behind, as when the whole write was one transaction).
 */
export function afterCardIssuerCall<R, O extends Outcome = Outcome>(step: {
  call: () => Promise<R>;
  confirm: (uow: UnitOfWork, result: R) => Promise<O>;
  compensate: (uow: UnitOfWork) => Promise<void>;
}): PendingProviderStep<O> {
  return afterProviderCall<R, O>({
    call: () => callProvider({ provider: "card_issuance" }, step.call),
    onResult: step.confirm,
    onFailure: (uow) => step.compensate(uow),
  });
}
