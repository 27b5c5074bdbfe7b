// The reconciler's handlers for a card's status change (freeze, unfreeze, deactivate) and limits change
// (server/domain/reconcile/): the card issuer is asked by the change's reference (`<card id>:<request id>`, the issuer
// call's idempotency key) whether it applied it. In one unit of work, with the card locked and the change still pending
// on it (`pendingUpdate`, card-pending-update.ts):
//   - applied: the change stands — `pendingUpdate` cleared, the activity and the event (`card.frozen`, …,
//     `card.limits_updated`) recorded once, as the request would have; the key's final answer 200 with the card;
//   - never applied: the card put back as the change found it (`status` and `statusReason`, or `limits`), no event; the
//     key's final answer 502 PROVIDER_EXECUTION_FAILED saying so;
//   - after the last attempt, the issuer still unable to answer: a freeze or a deactivation stands, with its event (a
//     protective change: authorizations are decided on this record, so the card declines whatever the issuer holds);
//     an unfreeze or a limits change is put back (a change the issuer cannot confirm is not applied), the key's final
//     answer 502 naming the issuer's last error.
import { renderErrorBody } from "../../../sdk/src/protocol/error-body.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { Outcome, UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardIssuerLookup } from "../../providers/capabilities/card-issuing.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type IntentHandler, scopeOf } from "../reconcile/intent-handler.ts";
import { bumpCardVersion } from "./bump-card-version.ts";
import { toCardDto } from "./card-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import { type CardPendingUpdate, clearPendingUpdate, readPendingUpdate } from "./card-pending-update.ts";
import { CARD_LIMITS, CARD_STATUS } from "./card-write-intents.ts";
import { CARD_STATUS_EVENT } from "./change-card-status.ts";
import { lockIntentCard, lookUpIntentCard } from "./look-up-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";

type Found = CardIssuerLookup | { gone: true };
/** What the issuer answered of the change, or the last error when it never could. */
type Settlement = "applied" | "not_applied" | { unconfirmed: string };

const cardUpdateHandler = (family: string): IntentHandler<Found> => ({
  family,
  lookup: lookUpIntentCard,
  settle: (uow, intent, found) =>
    "gone" in found ? Promise.resolve(undefined) : settleUpdate(uow, intent, found.executed ? "applied" : "not_applied"),
  giveUp: (uow, intent, lastError) => settleUpdate(uow, intent, { unconfirmed: lastError }),
});

export const cardStatusHandler = cardUpdateHandler(CARD_STATUS);
export const cardLimitsHandler = cardUpdateHandler(CARD_LIMITS);

/** Freezing and deactivating protect the cardholder: unconfirmed, they stand. */
const PROTECTIVE = new Set(["freeze", "deactivate"]);

async function settleUpdate(uow: UnitOfWork, intent: ClaimedIntent, outcome: Settlement): Promise<Outcome | undefined> {
  const scope = scopeOf(intent);
  const locked = await lockIntentCard(uow.tx, intent);
  if (!locked) return undefined;
  const { card, fundingAsset } = locked;
  const pending = readPendingUpdate(card.pendingUpdate);
  if (!pending || pending.reference !== intent.reference) {
    // Not reached while the intent is open (the card takes no other change meanwhile); named, never hidden.
    return notApplied(intent, pending, `The card's pending change is no longer this one; the card is ${card.status}: check it.`);
  }
  const stands = outcome === "applied" || (typeof outcome === "object" && pending.type === "status" && PROTECTIVE.has(pending.action));
  if (stands) {
    await clearPendingUpdate(uow.tx, scope, card.id, pending.reference).execute();
    const body = toCardDto({ ...card, pendingUpdate: null }, fundingAsset, await readCardBalance(uow.tx, scope, card.id));
    const type = pending.type === "status" ? CARD_STATUS_EVENT[pending.action] : "card.limits_updated";
    recordActivity(uow, { ...scope, type, resourceId: card.id });
    emitCardEvent(uow, scope, type, card.id, body);
    return { status: 200, body };
  }
  const previous = pending.type === "status" ? pending.previous : { limits: JSON.stringify(pending.previous.limits) };
  const restored = await bumpCardVersion(uow, card, { ...previous, pendingUpdate: null });
  const what = pending.type === "status" ? `status ${restored.status}` : "previous limits";
  return notApplied(
    intent,
    pending,
    outcome === "not_applied"
      ? `The card issuer never applied this change (its answer was lost; it has no record of it). The card is back to its ${what}.`
      : `The card issuer could not confirm whether it applied this change after ${intent.attempts} attempts (last: ${outcome.unconfirmed}). The card is back to its ${what}; send the change again to apply it.`.slice(
          0,
          500,
        ),
  );
}

/** The key's final answer when the change did not stand, in the shape the request would have answered it
 * (problem+json; `requestId` names the intent, which the reconciler's log line names too). */
function notApplied(intent: ClaimedIntent, pending: CardPendingUpdate | null, message: string): Outcome {
  const cards = `/api/v2/agent/cards/${intent.resourceId}`;
  const path = pending?.type === "status" ? `${cards}/${pending.action}` : `${cards}/limits`;
  const error = new ServiceError("PROVIDER_EXECUTION_FAILED", message);
  const { contentType, body } = renderErrorBody(error, { problem: true, path, requestId: intent.id });
  return { status: error.status, body, contentType };
}
