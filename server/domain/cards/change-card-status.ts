import type { AuthContext } from "../../context.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { afterCardIssuerCall } from "./after-card-issuer-call.ts";
import { bumpCardVersion, revertCardUpdate } from "./bump-card-version.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { toCardDto } from "./card-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import { type CardStatusAction, nextCardStatus } from "./card-transitions.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";

/** The activity type and the event type of each action (the same names). */
const ACTIVITY = { freeze: "card.frozen", unfreeze: "card.unfrozen", deactivate: "card.deactivated" } as const satisfies Record<
  CardStatusAction,
  string
>;

/** Freeze, unfreeze or deactivate (see nextCardStatus); anything else → 409 CARD_RECORD_CONFLICT. Unfreezing re-enables
 * spend, so it re-screens the cardholder and the programme's jurisdictions first; freezing and deactivating are
 * protective and never screened. Two transactions (see afterCardIssuerCall): the new status is written under the card's
 * lock, the issuer applies it, and a refusal puts the card back as it was. */
export async function changeCardStatus(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    cardId: string;
    action: CardStatusAction;
    reason?: string;
    simulate?: CardIssuerFailure;
    requestId: string;
  },
): Promise<PendingProviderStep<Extract<OperationOutcome<"freezeCard">, { status: 200 }>>> {
  const { auth, cardId, action, reason, simulate, requestId } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  const card = await findCard(uow.tx, auth, cardId, { forUpdate: true });
  const nextStatus = nextCardStatus(card.status, action);
  // Checked before screening, so a transition that cannot happen records no compliance decision.
  if (nextStatus === null) {
    throw new ServiceError("CARD_RECORD_CONFLICT", `A ${card.status} card cannot be ${action === "unfreeze" ? "unfrozen" : `${action}d`}`, {
      extensions: { currentStatus: card.status },
    });
  }
  if (action === "unfreeze") {
    await enforceCompliance({
      uow,
      auth,
      subject: cardComplianceSubject({ operation: "unfreezeCard", programme: card.programme, cardholder: card.cardholder }),
      requestId,
    });
  }
  const updated = await bumpCardVersion(uow, card, { status: nextStatus, statusReason: reason ?? null });
  const balance = await guardCardWrite("record", () => readCardBalance(uow.tx, auth, cardId));
  const body = toCardDto(updated, card.programme.fundingAsset, balance);

  return afterCardIssuerCall({
    call: () =>
      issuer.api.setCardStatus(issuer.context({ simulate, idempotencyKey: `${cardId}:${requestId}` }), {
        reference: card.providerReference,
        status: nextStatus,
      }),
    async confirm(uow2) {
      recordActivity(uow2, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: ACTIVITY[action],
        resourceId: cardId,
      });
      emitCardEvent(uow2, auth, ACTIVITY[action], cardId, body);
      return { status: 200, body };
    },
    compensate: (uow2) => revertCardUpdate(uow2, card, updated, ["status", "statusReason"]),
  });
}
