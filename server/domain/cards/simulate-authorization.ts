import type { AuthContext } from "../../context.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { afterCardIssuerCall } from "./after-card-issuer-call.ts";
import { authorizedSince } from "./authorized-since.ts";
import { cardAvailableAccount, cardPendingAccount, programmeFundingAccount } from "./card-accounts.ts";
import { parseCardAmount } from "./card-amount.ts";
import { toCardAuthorizationDto } from "./card-authorization-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import { decideAuthorization } from "./decide-authorization.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { lockCard } from "./lock-card.ts";
import { lockProgramme } from "./lock-programme.ts";
import { deleteLedgerJournals, postLedgerJournal } from "./post-ledger-journal.ts";
import { readSpendableBalance } from "./read-account-balances.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { requireTestHelperAccess } from "./require-test-helper-access.ts";
import { storedLimits, validateCardLimits } from "./validate-card-limits.ts";

type Request = components["schemas"]["SimulateAuthorizationRequest"];

export const DEFAULT_SANDBOX_MERCHANT: Request["merchant"] & object = { name: "Sandbox Merchant", categoryCode: "5999" };

/** Sandbox test helper: a merchant's authorization request on the card. Approved → a hold moves funds to the card's
 * pending account; declined → recorded with its reason, no ledger effect. Two transactions (see afterCardIssuerCall):
 * the decision, the authorization, its transaction and the hold are written under the card's lock (and the
 * programme's, just in time), the issuer authorizes, and a refusal deletes them again. */
export async function simulateAuthorization(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    cardId: string;
    request: Request;
    simulate?: CardIssuerFailure;
  },
): Promise<PendingProviderStep<OperationOutcome<"simulateCardAuthorization">>> {
  const { auth, cardId, request, simulate } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  requireTestHelperAccess(auth);
  // Read unlocked first to learn the programme: its lock (just in time) comes before the card's.
  const { programme } = await findCard(uow.tx, auth, cardId);
  const asset = programme.fundingAsset;
  const amountMinor = parseCardAmount(request.amount, asset, "amount");
  const merchant = request.merchant ?? DEFAULT_SANDBOX_MERCHANT;
  const justInTime = programme.fundingModel === "just_in_time";
  const scope = { organizationId: auth.organizationId, environment: auth.environment };
  if (justInTime) await lockProgramme(uow.tx, programme.id);
  const card = await lockCard(uow.tx, auth, cardId);

  const now = uow.now;
  const source = justInTime ? programmeFundingAccount(programme.id) : cardAvailableAccount(cardId);
  const [funds, windows] = await guardCardWrite(
    "ledger",
    async () => [await readSpendableBalance(uow.tx, auth, source), await authorizedSince(uow.tx, cardId, now)] as const,
  );
  const declineReason = decideAuthorization({
    cardStatus: card.status,
    limits: validateCardLimits(storedLimits(card.limits), asset),
    merchantCategory: merchant.categoryCode,
    amountMinor,
    authorizedTodayMinor: windows.today,
    authorizedThisMonthMinor: windows.month,
    fundsMinor: funds,
  });
  // The attempt as both rows record it: the authorization and its `authorization` transaction.
  const attempt = {
    status: declineReason ? "declined" : "pending",
    declineReason,
    asset,
    amountMinor: amountMinor.toString(),
    merchantName: merchant.name,
    merchantCategory: merchant.categoryCode,
    merchantCity: merchant.city ?? null,
    merchantCountry: merchant.country ?? null,
  };
  const authorization = await guardCardWrite("record", () =>
    uow.tx
      .insertInto("CardAuthorization")
      .values({
        id: newId("cauth"),
        ...scope,
        cardId,
        programmeId: programme.id,
        ...attempt,
        createdAt: now,
        updatedAt: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  const transaction = await guardCardWrite("ledger", () =>
    uow.tx
      .insertInto("CardTransaction")
      .values({
        id: newId("ctx"),
        ...scope,
        cardId,
        authorizationId: authorization.id,
        type: "authorization",
        ...attempt,
        createdAt: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  if (!declineReason) {
    await postLedgerJournal(uow, auth, {
      journalId: transaction.id,
      kind: "authorization_hold",
      programmeId: programme.id,
      cardId,
      asset,
      transfers: [{ from: source, to: cardPendingAccount(cardId), amountMinor }],
    });
  }
  const balance = await guardCardWrite("ledger", () => readCardBalance(uow.tx, auth, cardId));
  const body = toCardAuthorizationDto(authorization, [transaction], balance);

  return afterCardIssuerCall({
    call: () =>
      issuer.api.authorize(issuer.context({ simulate, idempotencyKey: authorization.id }), {
        reference: card.providerReference,
        amount: request.amount,
        merchantCategory: merchant.categoryCode,
      }),
    async confirm(uow2) {
      recordActivity(uow2, {
        ...scope,
        type: declineReason ? "card.authorization_declined" : "card.authorized",
        resourceId: authorization.id,
      });
      emitCardEvent(uow2, scope, declineReason ? "card.authorization.declined" : "card.authorization.approved", authorization.id, body);
      return { status: 201, body };
    },
    async compensate(uow2) {
      await deleteLedgerJournals(uow2.tx, [transaction.id]);
      await uow2.tx.deleteFrom("CardTransaction").where("id", "=", transaction.id).execute();
      await uow2.tx.deleteFrom("CardAuthorization").where("id", "=", authorization.id).execute();
    },
  });
}
