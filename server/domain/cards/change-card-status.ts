import type { AuthContext } from "../../context.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import type { SimulatedCardIssuerStore } from "../../providers/capabilities/simulated-card-issuer-store.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { afterCardIssuerCall } from "./after-card-issuer-call.ts";
import { bumpCardVersion, revertCardUpdate } from "./bump-card-version.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { toCardDto } from "./card-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import { changePending, clearPendingUpdate, storePendingUpdate } from "./card-pending-update.ts";
import { type CardStatusAction, nextCardStatus } from "./card-transitions.ts";
import { CARD_STATUS } from "./card-write-intents.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";

/** The activity type and the event type of each action (the same names). */
export const CARD_STATUS_EVENT = {
  freeze: "card.frozen",
  unfreeze: "card.unfrozen",
  deactivate: "card.deactivated",
} as const satisfies Record<CardStatusAction, string>;

/** Freeze, unfreeze or deactivate (see nextCardStatus); anything else → 409 CARD_RECORD_CONFLICT. Unfreezing re-enables
 * spend, so it re-screens the cardholder and the programme's jurisdictions first; freezing and deactivating are
 * protective and never screened. Two transactions (see afterCardIssuerCall): the new status is written under the card's
 * lock with what it replaced (`pendingUpdate`, card-pending-update.ts) and the provider intent, the issuer applies it,
 * and a refusal puts the card back as it was. A lost answer leaves the change pending (202) for the reconciler
 * (reconcile-card-update.ts). */
export async function changeCardStatus(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    cardId: string;
    action: CardStatusAction;
    reason?: string;
    simulate?: CardIssuerFailure;
    requestId: string;
    /** The sandbox simulator's books (a live issuer ignores them). */
    books: SimulatedCardIssuerStore;
  },
): Promise<PendingProviderStep<Extract<OperationOutcome<"freezeCard">, { status: 200 | 202 }>>> {
  const { auth, cardId, action, reason, simulate, requestId, books } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  const card = await findCard(uow.tx, auth, cardId, { forUpdate: true });
  if (card.pendingUpdate !== null) throw changePending();
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
  const reference = `${cardId}:${requestId}`;
  const updated = await bumpCardVersion(uow, card, {
    status: nextStatus,
    statusReason: reason ?? null,
    pendingUpdate: storePendingUpdate({
      type: "status",
      action,
      reference,
      requestedAt: uow.now.toISOString(),
      previous: { status: card.status, statusReason: card.statusReason },
    }),
  });
  const balance = await guardCardWrite("record", () => readCardBalance(uow.tx, auth, cardId));
  const asset = card.programme.fundingAsset;
  const body = toCardDto({ ...updated, pendingUpdate: null }, asset, balance);
  const scope = { organizationId: auth.organizationId, environment: auth.environment };

  return afterCardIssuerCall<void, Extract<OperationOutcome<"freezeCard">, { status: 200 | 202 }>>({
    intent: { family: CARD_STATUS, resourceId: cardId, reference, ...scope },
    call: () =>
      issuer.api.setCardStatus(issuer.context({ simulate, idempotencyKey: reference, books }), {
        reference: card.providerReference,
        status: nextStatus,
        reason,
      }),
    async confirm(uow2) {
      uow2.deferLater((db) => clearPendingUpdate(db, scope, cardId, reference));
      recordActivity(uow2, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: CARD_STATUS_EVENT[action],
        resourceId: cardId,
      });
      emitCardEvent(uow2, auth, CARD_STATUS_EVENT[action], cardId, body);
      return { status: 200, body };
    },
    // The issuer may have applied it: the card keeps the requested status with the change pending, no event, until the
    // reconciler confirms it or puts the card back.
    unknown: async () => ({ status: 202, body: toCardDto(updated, asset, balance) }),
    compensate: (uow2) => revertCardUpdate(uow2, card, updated, ["status", "statusReason", "pendingUpdate"]),
  });
}
