import type { AuthContext } from "../../context.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { afterCardIssuerCall } from "./after-card-issuer-call.ts";
import { formatCardAmount, parseCardAmount } from "./card-amount.ts";
import { heldMinor, toCardAuthorizationDto } from "./card-authorization-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import type { CardTransactionRow } from "./card-rows.ts";
import { findCard } from "./find-card.ts";
import { findCardAuthorization } from "./find-card-authorization.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { deleteLedgerJournals } from "./post-ledger-journal.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { recordHoldMovement } from "./record-hold-movement.ts";
import { requireTestHelperAccess } from "./require-test-helper-access.ts";
import { revertAuthorizationUpdate, updateAuthorization } from "./update-authorization.ts";

/** Sandbox test helpers on a pending authorization: `capture` settles `amount` (default: the whole hold) and closes it,
 * releasing any remainder; `reverse` releases `amount` (default: the whole hold) and closes it when nothing is held.
 * Allowed whatever the card's state (the network settles holds placed before a freeze or deactivation). Two
 * transactions (see afterCardIssuerCall): the movements (transactions `pending`, their postings) and the authorization's
 * new amounts are written under the card's lock, the issuer settles, then the movements turn `posted` — or are deleted
 * again and the authorization restored. */
export async function settleAuthorization(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    cardId: string;
    authorizationId: string;
    action: "capture" | "reverse";
    amount?: string;
    simulate?: CardIssuerFailure;
  },
): Promise<PendingProviderStep<Extract<OperationOutcome<"captureCardAuthorization">, { status: 200 }>>> {
  const { auth, cardId, authorizationId, action, amount, simulate } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  requireTestHelperAccess(auth);
  // The card's lock serializes every write of its authorizations.
  const card = await findCard(uow.tx, auth, cardId, { forUpdate: true });
  const { programme } = card;
  const authorization = await findCardAuthorization(uow.tx, auth, cardId, authorizationId);
  const asset = programme.fundingAsset;
  const requestedMinor = amount === undefined ? undefined : parseCardAmount(amount, asset, "amount");
  if (authorization.status !== "pending") {
    throw new ServiceError("CARD_RECORD_CONFLICT", `The authorization is ${authorization.status}; only a pending one can be ${action}d`, {
      extensions: { currentStatus: authorization.status },
    });
  }
  const held = heldMinor(authorization);
  const moveMinor = requestedMinor ?? held;
  if (moveMinor > held) {
    throw new ServiceError(
      "CARD_REQUEST_REJECTED",
      `amount ${amount} is above the open hold of ${formatCardAmount(held, asset)} ${asset}`,
      {
        errors: [{ path: "/body/amount", message: `must not exceed the open hold (${formatCardAmount(held, asset)})` }],
      },
    );
  }
  const created: CardTransactionRow[] = [];
  const movement = { authorization, fundingModel: programme.fundingModel };
  let captured = 0n;
  let released = 0n;
  if (action === "capture") {
    captured = moveMinor;
    created.push(await recordHoldMovement(uow, auth, { ...movement, type: "capture", amountMinor: captured }));
    released = held - captured;
  } else {
    released = moveMinor;
  }
  if (released > 0n) created.push(await recordHoldMovement(uow, auth, { ...movement, type: "reversal", amountMinor: released }));
  const updated = await updateAuthorization(uow, authorization, { capturedMinor: captured, reversedMinor: released });
  const balance = await guardCardWrite("ledger", () => readCardBalance(uow.tx, auth, cardId));
  // As the issuer's confirmation leaves them.
  const body = toCardAuthorizationDto(
    updated,
    created.map((row) => ({ ...row, status: "posted" })),
    balance,
  );
  const createdIds = created.map((row) => row.id);

  return afterCardIssuerCall({
    call: () => {
      const call = { reference: card.providerReference, authorizationId, amount };
      const ctx = issuer.context({ simulate, idempotencyKey: createdIds[0] ?? authorizationId });
      return action === "capture" ? issuer.api.capture(ctx, call) : issuer.api.reverse(ctx, call);
    },
    async confirm(uow2) {
      if (createdIds.length > 0) {
        uow2.deferLater((db) =>
          db.updateTable("CardTransaction").set({ status: "posted" }).where("id", "in", createdIds).where("status", "=", "pending"),
        );
      }
      recordActivity(uow2, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: action === "capture" ? "card.authorization_captured" : "card.authorization_reversed",
        resourceId: authorizationId,
      });
      emitCardEvent(
        uow2,
        auth,
        action === "capture" ? "card.authorization.captured" : "card.authorization.reversed",
        authorizationId,
        body,
      );
      return { status: 200, body };
    },
    async compensate(uow2) {
      await uow2.tx.selectFrom("Card").select("id").where("id", "=", cardId).forUpdate().execute();
      await deleteLedgerJournals(uow2.tx, createdIds);
      if (createdIds.length > 0) await uow2.tx.deleteFrom("CardTransaction").where("id", "in", createdIds).execute();
      await revertAuthorizationUpdate(uow2, authorization, updated);
    },
  });
}
