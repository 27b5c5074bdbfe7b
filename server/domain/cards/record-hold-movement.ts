import type { AuthContext } from "../../context.ts";
import type { CardAuthorization, CardTransaction } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import { cardAvailableAccount, cardPendingAccount, MERCHANT_SETTLEMENT_ACCOUNT, programmeFundingAccount } from "./card-accounts.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { postLedgerJournal } from "./post-ledger-journal.ts";

/** Settles (`capture`: card pending → merchant settlement) or releases (`reversal`: card pending → card available, or
 * the programme's funding account on just-in-time programmes) part of an authorization's hold: a posted transaction
 * and its balanced posting. */
export async function recordHoldMovement(
  tx: Tx,
  auth: AuthContext,
  options: { authorization: CardAuthorization; fundingModel: string; type: "capture" | "reversal"; amountMinor: bigint },
): Promise<CardTransaction> {
  const { authorization, fundingModel, type, amountMinor } = options;
  const { cardId, programmeId, asset } = authorization;
  const row = await guardCardWrite("ledger", () =>
    tx.cardTransaction.create({
      data: {
        id: newId("ctx"),
        organizationId: auth.organizationId,
        environment: auth.environment,
        cardId,
        authorizationId: authorization.id,
        type,
        status: "posted",
        asset,
        amountMinor: amountMinor.toString(),
        merchantName: authorization.merchantName,
        merchantCategory: authorization.merchantCategory,
        merchantCity: authorization.merchantCity,
        merchantCountry: authorization.merchantCountry,
      },
    }),
  );
  const releaseTo = fundingModel === "just_in_time" ? programmeFundingAccount(programmeId) : cardAvailableAccount(cardId);
  await postLedgerJournal(tx, auth, {
    journalId: row.id,
    kind: type === "capture" ? "capture" : "release",
    programmeId,
    cardId,
    asset,
    transfers: [{ from: cardPendingAccount(cardId), to: type === "capture" ? MERCHANT_SETTLEMENT_ACCOUNT : releaseTo, amountMinor }],
  });
  return row;
}
