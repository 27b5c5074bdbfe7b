import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { beginCardWrite } from "./begin-card-write.ts";
import { bumpCardVersion } from "./bump-card-version.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { type CardDto, toCardDto } from "./card-dto.ts";
import { CARD_TRANSITIONS, type CardStatusAction } from "./card-transitions.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { lockCard } from "./lock-card.ts";
import type { PreparedCardWrite } from "./prepared-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";

const ACTIVITY: Record<CardStatusAction, string> = { freeze: "card.frozen", unfreeze: "card.unfrozen", deactivate: "card.deactivated" };

/** Freeze, unfreeze or deactivate (see CARD_TRANSITIONS); anything else → 409 CARD_RECORD_CONFLICT. Unfreezing re-enables
 * spend, so it re-screens the cardholder and the programme's jurisdictions first; freezing and deactivating are
 * protective and never screened. */
export async function changeCardStatus(options: {
  prisma: Db;
  auth: AuthContext;
  cardId: string;
  action: CardStatusAction;
  reason?: string;
  simulate?: CardIssuerFailure;
  requestId: string;
}): Promise<PreparedCardWrite<CardDto>> {
  const { prisma, auth, cardId, action, reason, simulate, requestId } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  const found = await findCard(prisma, auth, cardId);
  const transition = CARD_TRANSITIONS[action];
  const conflict = (status: string) =>
    new ServiceError("CARD_RECORD_CONFLICT", `A ${status} card cannot be ${action === "unfreeze" ? "unfrozen" : `${action}d`}`, {
      extensions: { currentStatus: status },
    });
  // Checked before screening too, so a transition that cannot happen records no compliance decision; the check under the
  // card lock below stays authoritative against concurrent changes.
  if (!(transition.from as readonly string[]).includes(found.status)) throw conflict(found.status);
  if (action === "unfreeze") {
    await enforceCompliance({
      prisma,
      auth,
      subject: cardComplianceSubject({ operation: "unfreezeCard", programme: found.programme, cardholder: found.cardholder }),
      requestId,
    });
  }
  return {
    status: 200,
    conflict: "CARD_RECORD_CONFLICT",
    async commit(tx) {
      await beginCardWrite(tx);
      const card = await lockCard(tx, auth, cardId);
      if (!(transition.from as readonly string[]).includes(card.status)) throw conflict(card.status);
      await callCardIssuer(() => issuer.api.setCardStatus(issuer.ctx, { reference: card.providerReference, status: transition.to }));
      const updated = await bumpCardVersion(tx, card, { status: transition.to, statusReason: reason ?? null });
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: ACTIVITY[action],
        resourceId: cardId,
      });
      const balance = await guardCardWrite("record", () => readCardBalance(tx, auth, cardId));
      return toCardDto(updated, found.programme.fundingAsset, balance);
    },
  };
}
