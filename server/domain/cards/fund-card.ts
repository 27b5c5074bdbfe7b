import type { AuthContext } from "../../context.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import type { SimulatedCardIssuerStore } from "../../providers/capabilities/simulated-card-issuer-store.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { afterCardIssuerCall } from "./after-card-issuer-call.ts";
import { bumpCardVersion, revertCardUpdate } from "./bump-card-version.ts";
import { cardAvailableAccount, programmeFundingAccount } from "./card-accounts.ts";
import { formatCardAmount, parseCardAmount } from "./card-amount.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { toCardDto } from "./card-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import { CARD_FUND } from "./card-write-intents.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { lockCard } from "./lock-card.ts";
import { lockProgramme } from "./lock-programme.ts";
import { deleteLedgerJournals, postLedgerJournal } from "./post-ledger-journal.ts";
import { readSpendableBalance } from "./read-account-balances.ts";
import { readCardBalance } from "./read-card-balance.ts";

type Request = components["schemas"]["FundCardRequest"];
type Result = components["schemas"]["FundCardResult"];

const deactivated = () => new ServiceError("CARD_RECORD_CONFLICT", "The card is deactivated; it cannot be funded");

/** Moves funds from the programme's funding account to a prefunded card: one balanced posting and a `funding`
 * transaction, serialized per programme and card. Two transactions (see afterCardIssuerCall): the posting is written
 * with its transaction `pending` (not spendable yet: readSpendableBalance), the issuer funds the card, then the
 * transaction turns `posted` — or, when the issuer refused, the posting and the transaction are deleted again.
 *
 * Reconcilable (issue 26): the first transaction also opens a `card.fund` intent, the transaction id being the issuer's
 * idempotency key. When the issuer's answer is lost (a timeout: it may have funded the card) the funding stays `pending`
 * and is answered 202; the reconciler (reconcile-card-funding.ts) asks the issuer by the transaction id and posts it, or
 * writes it back. A crash between the two transactions leaves it to the reconciler the same way. */
export async function fundCard(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    cardId: string;
    request: Request;
    simulate?: CardIssuerFailure;
    requestId: string;
    /** The sandbox simulator's books (a live issuer ignores them). */
    books: SimulatedCardIssuerStore;
  },
): Promise<PendingProviderStep<OperationOutcome<"fundCard">>> {
  const { auth, cardId, request, simulate, requestId, books } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  const found = await findCard(uow.tx, auth, cardId);
  const { programme } = found;
  if (request.asset !== programme.fundingAsset) {
    throw new ServiceError(
      "CARD_REQUEST_REJECTED",
      `asset ${request.asset} is not the programme's funding asset ${programme.fundingAsset}`,
      {
        errors: [{ path: "/body/asset", message: `must be ${programme.fundingAsset}, the programme's funding asset` }],
      },
    );
  }
  if (programme.fundingModel !== "prefunded") {
    throw new ServiceError("CARD_REQUEST_REJECTED", "The card's programme is just_in_time: its cards hold no balance to fund");
  }
  const amountMinor = parseCardAmount(request.amount, programme.fundingAsset, "amount");
  // Before screening, so funding a deactivated card records no compliance decision (re-checked under the lock below).
  if (found.status === "deactivated") throw deactivated();
  await enforceCompliance({
    uow,
    auth,
    subject: cardComplianceSubject({
      operation: "fundCard",
      programme,
      cardholder: found.cardholder,
      amount: { value: request.amount, currency: request.asset },
    }),
    requestId,
  });

  const scope = { organizationId: auth.organizationId, environment: auth.environment };
  await lockProgramme(uow.tx, programme.id);
  const card = await lockCard(uow.tx, auth, cardId);
  if (card.status === "deactivated") throw deactivated();
  const funding = programmeFundingAccount(programme.id);
  const available = await guardCardWrite("ledger", () => readSpendableBalance(uow.tx, auth, funding));
  if (available < amountMinor) {
    throw new ServiceError(
      "CARD_INSUFFICIENT_FUNDS",
      `The programme's funding account holds ${formatCardAmount(available, programme.fundingAsset)} ${programme.fundingAsset}; it does not cover ${request.amount}`,
    );
  }
  const transactionId = newId("ctx");
  await guardCardWrite("ledger", () =>
    uow.tx
      .insertInto("CardTransaction")
      .values({
        id: transactionId,
        ...scope,
        cardId,
        type: "funding",
        status: "pending",
        asset: programme.fundingAsset,
        amountMinor: amountMinor.toString(),
        createdAt: uow.now,
      })
      .execute(),
  );
  const [[, creditId]] = (await postLedgerJournal(uow, auth, {
    journalId: transactionId,
    kind: "funding",
    programmeId: programme.id,
    cardId,
    asset: programme.fundingAsset,
    transfers: [{ from: funding, to: cardAvailableAccount(cardId), amountMinor }],
  })) as [[string, string]];
  const updated = await bumpCardVersion(uow, card);
  const balance = await guardCardWrite("ledger", () => readCardBalance(uow.tx, auth, cardId));
  const result: Result = {
    card: toCardDto(updated, programme.fundingAsset, balance),
    ledgerEntryId: creditId,
    transactionId,
    status: "posted",
    failureReason: null,
    simulated: true,
  };

  return afterCardIssuerCall<void, OperationOutcome<"fundCard">>({
    intent: { family: CARD_FUND, resourceId: transactionId, reference: transactionId, ...scope },
    call: () =>
      issuer.api.fundCard(issuer.context({ simulate, idempotencyKey: transactionId, books }), {
        reference: card.providerReference,
        amount: request.amount,
        asset: request.asset,
      }),
    async confirm(uow2) {
      uow2.deferLater((db) =>
        db.updateTable("CardTransaction").set({ status: "posted" }).where("id", "=", transactionId).where("status", "=", "pending"),
      );
      recordActivity(uow2, { ...scope, type: "card.funded", resourceId: transactionId, amountUsd: request.amount });
      emitCardEvent(uow2, scope, "card.funded", cardId, result.card);
      return { status: 200, body: result };
    },
    // The issuer may have funded the card: the funding stays `pending` (not spendable), no event, until the reconciler
    // confirms it.
    unknown: async () => ({ status: 202, body: { ...result, status: "pending" } }),
    async compensate(uow2) {
      await deleteLedgerJournals(uow2.tx, [transactionId]);
      await uow2.tx.deleteFrom("CardTransaction").where("id", "=", transactionId).execute();
      await revertCardUpdate(uow2, card, updated, []);
    },
  });
}
