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
import { CARD_LIMITS } from "./card-write-intents.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { type CardLimits, validateCardLimits } from "./validate-card-limits.ts";

/** Replaces a card's limits as a whole; they apply from the next authorization. Two transactions (see
 * afterCardIssuerCall): the limits are written under the card's lock with what they replaced (`pendingUpdate`,
 * card-pending-update.ts) and the provider intent, the issuer applies them, and a refusal puts the card back as it was.
 * A lost answer leaves the change pending (202) for the reconciler (reconcile-card-update.ts). */
export async function updateCardLimits(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    cardId: string;
    limits: CardLimits;
    simulate?: CardIssuerFailure;
    requestId: string;
    /** The sandbox simulator's books (a live issuer ignores them). */
    books: SimulatedCardIssuerStore;
  },
): Promise<PendingProviderStep<OperationOutcome<"updateCardLimits">>> {
  const { auth, cardId, limits, simulate, requestId, books } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  const card = await findCard(uow.tx, auth, cardId, { forUpdate: true });
  const asset = card.programme.fundingAsset;
  validateCardLimits(limits, asset);
  // Before screening, so a deactivated card's request records no compliance decision.
  if (card.status === "deactivated") throw new ServiceError("CARD_RECORD_CONFLICT", "The card is deactivated; its limits cannot change");
  if (card.pendingUpdate !== null) throw changePending();
  await enforceCompliance({
    uow,
    auth,
    subject: cardComplianceSubject({
      operation: "updateCardLimits",
      programme: card.programme,
      cardholder: card.cardholder,
      amount: limits.perAuthorization ? { value: limits.perAuthorization, currency: asset } : undefined,
    }),
    requestId,
  });
  const reference = `${cardId}:${requestId}`;
  const updated = await bumpCardVersion(uow, card, {
    limits: JSON.stringify(limits),
    pendingUpdate: storePendingUpdate({ type: "limits", reference, requestedAt: uow.now.toISOString(), previous: { limits: card.limits } }),
  });
  const balance = await guardCardWrite("record", () => readCardBalance(uow.tx, auth, cardId));
  const body = toCardDto({ ...updated, pendingUpdate: null }, asset, balance);
  const scope = { organizationId: auth.organizationId, environment: auth.environment };

  return afterCardIssuerCall<void, OperationOutcome<"updateCardLimits">>({
    intent: { family: CARD_LIMITS, resourceId: cardId, reference, ...scope },
    call: () =>
      issuer.api.setCardLimits(issuer.context({ simulate, idempotencyKey: reference, books }), {
        reference: card.providerReference,
        limits,
        perAuthorization: limits.perAuthorization,
      }),
    async confirm(uow2) {
      uow2.deferLater((db) => clearPendingUpdate(db, scope, cardId, reference));
      recordActivity(uow2, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "card.limits_updated",
        resourceId: cardId,
      });
      emitCardEvent(uow2, auth, "card.limits_updated", cardId, body);
      return { status: 200, body };
    },
    // The issuer may have applied them: the card keeps the new limits with the change pending, no event, until the
    // reconciler confirms them or puts the previous ones back.
    unknown: async () => ({ status: 202, body: toCardDto(updated, asset, balance) }),
    compensate: (uow2) => revertCardUpdate(uow2, card, updated, ["limits", "pendingUpdate"]),
  });
}
