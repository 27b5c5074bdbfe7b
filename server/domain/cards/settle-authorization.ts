import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardTransaction } from "../../generated/prisma/client.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { beginCardWrite } from "./begin-card-write.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { formatCardAmount, parseCardAmount } from "./card-amount.ts";
import { type CardAuthorizationDto, heldMinor, toCardAuthorizationDto } from "./card-authorization-dto.ts";
import { findCard } from "./find-card.ts";
import { findCardAuthorization } from "./find-card-authorization.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { lockCard } from "./lock-card.ts";
import type { PreparedCardWrite } from "./prepared-card-write.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { recordHoldMovement } from "./record-hold-movement.ts";
import { requireTestHelperAccess } from "./require-test-helper-access.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";
import { updateAuthorization } from "./update-authorization.ts";

/** Sandbox test helpers on a pending authorization: `capture` settles `amount` (default: the whole hold) and closes it,
 * releasing any remainder; `reverse` releases `amount` (default: the whole hold) and closes it when nothing is held.
 * Allowed whatever the card's state (the network settles holds placed before a freeze or deactivation). */
export async function settleAuthorization(options: {
  prisma: Db;
  auth: AuthContext;
  cardId: string;
  authorizationId: string;
  action: "capture" | "reverse";
  amount?: string;
  simulate?: CardIssuerFailure;
}): Promise<PreparedCardWrite<CardAuthorizationDto>> {
  const { prisma, auth, cardId, authorizationId, action, amount, simulate } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  requireTestHelperAccess(auth);
  const { programme } = await findCard(prisma, auth, cardId);
  await findCardAuthorization(prisma, auth, cardId, authorizationId);
  const asset = programme.fundingAsset;
  const requestedMinor = amount === undefined ? undefined : parseCardAmount(amount, asset, "amount");

  return {
    status: 200,
    conflict: "CARD_LEDGER_CONFLICT",
    async commit(tx) {
      await beginCardWrite(tx);
      const card = await lockCard(tx, auth, cardId);
      const authorization = await guardCardWrite("record", () => findCardAuthorization(tx, auth, cardId, authorizationId));
      if (authorization.status !== "pending") {
        throw new ServiceError(
          "CARD_RECORD_CONFLICT",
          `The authorization is ${authorization.status}; only a pending one can be ${action}d`,
          {
            extensions: { currentStatus: authorization.status },
          },
        );
      }
      const held = heldMinor(authorization);
      const moveMinor = requestedMinor ?? held;
      if (moveMinor > held) {
        throw new ServiceError(
          "CARD_REQUEST_REJECTED",
          `amount ${amount} is above the open hold of ${formatCardAmount(held, asset)} ${asset}`,
          { errors: [{ path: "/body/amount", message: `must not exceed the open hold (${formatCardAmount(held, asset)})` }] },
        );
      }
      const call = { reference: card.providerReference, authorizationId, amount };
      await callCardIssuer(() => (action === "capture" ? issuer.api.capture(issuer.ctx, call) : issuer.api.reverse(issuer.ctx, call)));
      const created: CardTransaction[] = [];
      const movement = { authorization, fundingModel: programme.fundingModel };
      let captured = 0n;
      let released = 0n;
      if (action === "capture") {
        captured = moveMinor;
        created.push(await recordHoldMovement(tx, auth, { ...movement, type: "capture", amountMinor: captured }));
        released = held - captured;
      } else {
        released = moveMinor;
      }
      if (released > 0n) created.push(await recordHoldMovement(tx, auth, { ...movement, type: "reversal", amountMinor: released }));
      const updated = await updateAuthorization(tx, authorization, { capturedMinor: captured, reversedMinor: released });
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: action === "capture" ? "card.authorization_captured" : "card.authorization_reversed",
        resourceId: authorizationId,
      });
      const balance = await guardCardWrite("ledger", () => readCardBalance(tx, auth, cardId));
      return toCardAuthorizationDto(updated, created, balance);
    },
  };
}
