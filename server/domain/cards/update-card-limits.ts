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
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { lockCard } from "./lock-card.ts";
import type { PreparedCardWrite } from "./prepared-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";
import { type CardLimits, validateCardLimits } from "./validate-card-limits.ts";

const deactivated = () => new ServiceError("CARD_RECORD_CONFLICT", "The card is deactivated; its limits cannot change");

/** Replaces a card's limits as a whole; they apply from the next authorization. */
export async function updateCardLimits(options: {
  prisma: Db;
  auth: AuthContext;
  cardId: string;
  limits: CardLimits;
  simulate?: CardIssuerFailure;
  requestId: string;
}): Promise<PreparedCardWrite<CardDto>> {
  const { prisma, auth, cardId, limits, simulate, requestId } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  const found = await findCard(prisma, auth, cardId);
  const asset = found.programme.fundingAsset;
  validateCardLimits(limits, asset);
  // Before screening, so a deactivated card's request records no compliance decision (re-checked under the lock below).
  if (found.status === "deactivated") throw deactivated();
  await enforceCompliance({
    prisma,
    auth,
    subject: cardComplianceSubject({
      operation: "updateCardLimits",
      programme: found.programme,
      cardholder: found.cardholder,
      amount: limits.perAuthorization ? { value: limits.perAuthorization, currency: asset } : undefined,
    }),
    requestId,
  });
  return {
    status: 200,
    conflict: "CARD_RECORD_CONFLICT",
    async commit(tx) {
      await beginCardWrite(tx);
      const card = await lockCard(tx, auth, cardId);
      if (card.status === "deactivated") throw deactivated();
      await callCardIssuer(() => issuer.api.setCardLimits(issuer.ctx, { reference: card.providerReference, limits }));
      const updated = await bumpCardVersion(tx, card, { limits });
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "card.limits_updated",
        resourceId: cardId,
      });
      const balance = await guardCardWrite("record", () => readCardBalance(tx, auth, cardId));
      return toCardDto(updated, asset, balance);
    },
  };
}
