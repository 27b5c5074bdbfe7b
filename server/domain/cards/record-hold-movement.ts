import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { newId } from "../../lib/ids.ts";
import { cardAvailableAccount, cardPendingAccount, MERCHANT_SETTLEMENT_ACCOUNT, programmeFundingAccount } from "./card-accounts.ts";
import type { CardAuthorizationRow, CardTransactionRow } from "./card-rows.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { postLedgerJournal } from "./post-ledger-journal.ts";

/** Settles (`capture`: card pending → merchant settlement) or releases (`reversal`: card pending → card available, or
 * the programme's funding account on just-in-time programmes) part of an authorization's hold: a transaction and its
 * balanced posting. The transaction is `pending` until the issuer confirms the movement (then `posted`). */
export async function recordHoldMovement(
  uow: UnitOfWork,
  auth: AuthContext,
  options: { authorization: CardAuthorizationRow; fundingModel: string; type: "capture" | "reversal"; amountMinor: bigint },
): Promise<CardTransactionRow> {
  const { authorization, fundingModel, type, amountMinor } = options;
  const { cardId, programmeId, asset } = authorization;
  const row = await guardCardWrite("ledger", () =>
    uow.tx
      .insertInto("CardTransaction")
      .values({
        id: newId("ctx"),
        organizationId: auth.organizationId,
        environment: auth.environment,
        cardId,
        authorizationId: authorization.id,
        type,
        status: "pending",
        asset,
        amountMinor: amountMinor.toString(),
        merchantName: authorization.merchantName,
        merchantCategory: authorization.merchantCategory,
        merchantCity: authorization.merchantCity,
        merchantCountry: authorization.merchantCountry,
        createdAt: uow.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  const releaseTo = fundingModel === "just_in_time" ? programmeFundingAccount(programmeId) : cardAvailableAccount(cardId);
  await postLedgerJournal(uow, auth, {
    journalId: row.id,
    kind: type === "capture" ? "capture" : "release",
    programmeId,
    cardId,
    asset,
    transfers: [{ from: cardPendingAccount(cardId), to: type === "capture" ? MERCHANT_SETTLEMENT_ACCOUNT : releaseTo, amountMinor }],
  });
  return row;
}
