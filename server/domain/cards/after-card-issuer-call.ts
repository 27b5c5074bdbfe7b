import type { ProviderIntentSpec } from "../../db/provider-intents.ts";
import type { Outcome, PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import { afterProviderCall } from "../../db/unit-of-work/index.ts";
import { callProvider } from "../providers/provider-call.ts";

/**
 * Ends a card write's first transaction: every card write needs two transactions because the issuer is a provider and
 * no transaction stays open across its call. The first one (the unit of work) commits the write's records as its
 * intent — checked, locked and written there, so a failed record or ledger write and a transient conflict are answered
 * before the issuer is ever called — then the issuer is called with the intent's id as idempotency key, and a second
 * transaction confirms the intent (`confirm`) or, when the issuer refused, compensates it (`compensate`: the request
 * then leaves nothing behind, as when the whole write was one transaction).
 *
 * A reconcilable write (issue 26) also declares its `intent` (server/db/provider-intents.ts) and `unknown`: when the
 * issuer's answer is lost (the call timed out: it may have executed the write), nothing is compensated blind — `unknown`
 * records that state and answers it (202), and the family's reconcile handler asks the issuer by the intent's reference
 * and settles it (a crash between the two transactions is settled the same way).
 */
export function afterCardIssuerCall<R, O extends Outcome = Outcome>(step: {
  call: () => Promise<R>;
  confirm: (uow: UnitOfWork, result: R) => Promise<O>;
  compensate: (uow: UnitOfWork) => Promise<void>;
  intent?: ProviderIntentSpec;
  unknown?: (uow: UnitOfWork) => Promise<O>;
}): PendingProviderStep<O> {
  return afterProviderCall<R, O>({
    call: () => callProvider({ provider: "card_issuance" }, step.call),
    onResult: step.confirm,
    onFailure: (uow) => step.compensate(uow),
    ...(step.intent && step.unknown ? { intent: step.intent, onUnknown: step.unknown } : {}),
  });
}
