// The reconciler's handler for a card's issuing (server/domain/reconcile/): the card issuer is asked by the card id (the
// issuing call's idempotency key) whether it issued the card. In one unit of work, with the card locked and still
// `pending`:
//   - executed: the card turns `active` with the issuer's details (its reference, last4, expiry), the activity
//     `card.issued` and the event `card.issued` — each once, as the request would have written them;
//   - not executed: `failed`, `statusReason` `not_executed: …`; no event (the card was never issued). A cardholder
//     created with it stays (it is a cardholder; a new card may be issued to it by `cardholderId`);
//   - after the last attempt, the issuer still unable to answer: `failed` (`outcome_unconfirmed: …`).
// The key's final answer is 201 with the card as it now stands (`active` or `failed`).
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { CardIssuerLookup, IssuedCard } from "../../providers/capabilities/card-issuing.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type IntentHandler, scopeOf } from "../reconcile/intent-handler.ts";
import { bumpCardVersion } from "./bump-card-version.ts";
import { toCardDto } from "./card-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import { CARD_ISSUE, notExecuted, unconfirmed } from "./card-write-intents.ts";
import { lockIntentCard, lookUpIntentCard } from "./look-up-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";

type Found = CardIssuerLookup | { gone: true };

export const cardIssueHandler: IntentHandler<Found> = {
  family: CARD_ISSUE,
  lookup: lookUpIntentCard,
  settle: (uow, intent, found) =>
    "gone" in found
      ? Promise.resolve(undefined)
      : settleIssue(uow, intent, found.executed ? (found.result as unknown as IssuedCard) : notExecuted("card")),
  giveUp: (uow, intent, lastError) => settleIssue(uow, intent, unconfirmed("card", intent.attempts, lastError)),
};

/** Activates the card with the issuer's details, or fails it with `reason`, if it is still `pending`; returns the key's
 * answer. */
async function settleIssue(
  uow: UnitOfWork,
  intent: ClaimedIntent,
  outcome: IssuedCard | string,
): Promise<OperationOutcome<"issueCard"> | undefined> {
  const scope = scopeOf(intent);
  const locked = await lockIntentCard(uow.tx, intent);
  if (!locked) return undefined;
  const { fundingAsset } = locked;
  let card = locked.card;
  // Settled meanwhile (it cannot be while this run holds the intent, but a row is never moved twice): answered as it is.
  const settling = card.status === "pending";
  if (settling) {
    const issued = typeof outcome === "string" ? undefined : outcome;
    card = await bumpCardVersion(
      uow,
      card,
      issued
        ? { status: "active", providerReference: issued.reference, last4: issued.last4, expMonth: issued.expMonth, expYear: issued.expYear }
        : { status: "failed", statusReason: outcome as string },
    );
  }
  const body = toCardDto(card, fundingAsset, await readCardBalance(uow.tx, scope, card.id));
  if (settling && card.status === "active") {
    recordActivity(uow, { ...scope, type: "card.issued", resourceId: card.id });
    emitCardEvent(uow, scope, "card.issued", card.id, body);
  }
  return { status: 201, body };
}
