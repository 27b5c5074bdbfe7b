// What the reconciler (reconcile-intents.ts) needs of one family of provider writes: how to ask the provider by the
// intent's reference, and how to move the resource to its final state once the answer is known. A family plugs in with
// one handler (intent-handlers.ts lists them); the claiming, the backoff, closing the intent and the key's final answer
// are the reconciler's.
import type { Queryable } from "../../db/kysely.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { Outcome, UnitOfWork } from "../../db/unit-of-work/index.ts";

export interface IntentHandler<Found = unknown> {
  family: string;
  /** Asks the provider what became of the call with `intent.reference`; runs with no transaction open. Throws when the
   * provider cannot answer (the reconciler tries again later). */
  lookup(db: Queryable, intent: ClaimedIntent): Promise<Found>;
  /** In the settling unit of work (the intent locked): the resource's final state for what the provider answered — its
   * events, activity, ledgers. Returns the key's final answer (undefined: the resource is gone, nothing to answer). */
  settle(uow: UnitOfWork, intent: ClaimedIntent, found: Found): Promise<Outcome | undefined>;
  /** After the last attempt, the provider still unable to answer: the resource `failed`, with a reason an operator
   * reads (`lastError` is the provider's last failure). */
  giveUp(uow: UnitOfWork, intent: ClaimedIntent, lastError: string): Promise<Outcome | undefined>;
}

/** The organization and environment an intent acts in: every handler's tenant filter (ownedBy) on the resource. */
export const scopeOf = (intent: ClaimedIntent) => ({ organizationId: intent.organizationId, environment: intent.environment });
