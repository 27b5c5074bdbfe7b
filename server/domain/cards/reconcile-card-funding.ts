// The reconciler's handler for a card funding (server/domain/reconcile/): the card issuer is asked by the `funding`
// transaction's id (the funding call's idempotency key) whether it funded the card. In one unit of work, under the
// card endpoints' locks (programme, card), with the transaction still `pending`:
//   - executed: the transaction turns `posted` (spendable), the activity `card.funded` (metric cards.funding.volume)
//     and the event `card.funded` — each once, as the request would have written them;
//   - not executed: `failed` (`not_executed`), the posting written back by a reversing one under the same journal id
//     (the card's and the programme's balances as before), the card's version +1; no event (the card's balance never
//     moved for anyone: the pending credit was never spendable);
//   - after the last attempt, the issuer still unable to answer: `failed` (`outcome_unconfirmed`), written back the same.
// The key's final answer is 200 with the FundCardResult as it now stands (`status` posted or failed).
import type { Queryable } from "../../db/kysely.ts";
import { type Owner, ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import type { CardIssuerLookup } from "../../providers/capabilities/card-issuing.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type IntentHandler, scopeOf } from "../reconcile/intent-handler.ts";
import { bumpCardVersion } from "./bump-card-version.ts";
import { cardAvailableAccount, programmeFundingAccount } from "./card-accounts.ts";
import { decimalToMinor, formatCardAmount } from "./card-amount.ts";
import { toCardDto } from "./card-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import { CARD_FUND, FUNDING_NOT_EXECUTED, fundingUnconfirmed } from "./card-write-intents.ts";
import { lockCard } from "./lock-card.ts";
import { lockProgramme } from "./lock-programme.ts";
import { lookUpCardWrite } from "./look-up-card-write.ts";
import { postLedgerJournal } from "./post-ledger-journal.ts";
import { readCardBalance } from "./read-card-balance.ts";

type FundingFailure = components["schemas"]["CardFundingFailureReason"];
type Found = CardIssuerLookup | { gone: true };

/** The funding's card and programme (no lock: read to know which locks to take, and which issuer to ask). */
function fundingOf(db: Queryable, scope: Owner, transactionId: string) {
  return db
    .selectFrom("CardTransaction as t")
    .innerJoin("Card as c", "c.id", "t.cardId")
    .select(["t.cardId", "c.programmeId"])
    .where(ownedBy(scope, "t"))
    .where("t.id", "=", transactionId)
    .where("t.type", "=", "funding")
    .executeTakeFirst();
}

export const cardFundingHandler: IntentHandler<Found> = {
  family: CARD_FUND,
  async lookup(db, intent) {
    const funding = await fundingOf(db, scopeOf(intent), intent.resourceId);
    if (!funding) return { gone: true };
    return (await lookUpCardWrite(db, intent, funding.programmeId)) ?? { gone: true };
  },
  settle: (uow, intent, found) =>
    "gone" in found ? Promise.resolve(undefined) : settleFunding(uow, intent, found.executed || FUNDING_NOT_EXECUTED),
  giveUp: (uow, intent, lastError) => settleFunding(uow, intent, fundingUnconfirmed(intent.attempts, lastError)),
};

/** Posts the funding (`true`) or writes it back with `failure`, if it is still `pending`; returns the key's answer. */
async function settleFunding(
  uow: UnitOfWork,
  intent: ClaimedIntent,
  outcome: true | FundingFailure,
): Promise<OperationOutcome<"fundCard"> | undefined> {
  const scope = scopeOf(intent);
  const funding = await fundingOf(uow.tx, scope, intent.resourceId);
  if (!funding) return undefined;
  const { cardId, programmeId } = funding;
  // The card endpoints' lock order (programme, card): no posting to these accounts interleaves.
  await lockProgramme(uow.tx, programmeId);
  let card = await lockCard(uow.tx, scope, cardId);
  const transaction = await uow.tx
    .selectFrom("CardTransaction")
    .selectAll()
    .where(ownedBy(scope))
    .where("id", "=", intent.resourceId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  // Settled meanwhile (it cannot be while this run holds the intent, but a row is never moved twice): answered as it is.
  const settling = transaction.status === "pending";
  const failureReason = settling && outcome !== true ? outcome : null;
  if (settling) {
    transaction.status = outcome === true ? "posted" : "failed";
    await uow.tx
      .updateTable("CardTransaction")
      .set({ status: transaction.status })
      .where(ownedBy(scope))
      .where("id", "=", transaction.id)
      .execute();
    if (outcome === true) {
      const amount = formatCardAmount(decimalToMinor(transaction.amountMinor), transaction.asset);
      recordActivity(uow, { ...scope, type: "card.funded", resourceId: transaction.id, amountUsd: amount });
    } else {
      await postLedgerJournal(uow, scope, {
        journalId: transaction.id,
        kind: "funding_reversal",
        programmeId,
        cardId,
        asset: transaction.asset,
        transfers: [
          {
            from: cardAvailableAccount(cardId),
            to: programmeFundingAccount(programmeId),
            amountMinor: decimalToMinor(transaction.amountMinor),
          },
        ],
      });
      card = await bumpCardVersion(uow, card);
    }
  }
  const balance = await readCardBalance(uow.tx, scope, cardId);
  const dto = toCardDto(card, transaction.asset, balance);
  // The event the request would have sent, with the card as it now stands; only by the settlement that posted it.
  if (settling && outcome === true) emitCardEvent(uow, scope, "card.funded", cardId, dto);
  const credit = await uow.tx
    .selectFrom("CardLedgerEntry")
    .select("id")
    .where(ownedBy(scope))
    .where("journalId", "=", transaction.id)
    .where("kind", "=", "funding")
    .where("direction", "=", "credit")
    .executeTakeFirstOrThrow();
  return {
    status: 200,
    body: {
      card: dto,
      ledgerEntryId: credit.id,
      transactionId: transaction.id,
      status: transaction.status as "posted" | "failed",
      failureReason,
      simulated: true,
    },
  };
}
