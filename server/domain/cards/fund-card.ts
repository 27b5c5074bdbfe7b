import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { beginCardWrite } from "./begin-card-write.ts";
import { bumpCardVersion } from "./bump-card-version.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { cardAvailableAccount, programmeFundingAccount } from "./card-accounts.ts";
import { formatCardAmount, parseCardAmount } from "./card-amount.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { toCardDto } from "./card-dto.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { lockCard } from "./lock-card.ts";
import { lockProgramme } from "./lock-programme.ts";
import { postLedgerJournal } from "./post-ledger-journal.ts";
import type { PreparedCardWrite } from "./prepared-card-write.ts";
import { readAccountBalances } from "./read-account-balances.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";

type Request = components["schemas"]["FundCardRequest"];
type Result = components["schemas"]["FundCardResult"];

const deactivated = () => new ServiceError("CARD_RECORD_CONFLICT", "The card is deactivated; it cannot be funded");

/** Moves funds from the programme's funding account to a prefunded card: one balanced posting and a `funding`
 * transaction, serialized per programme and card. */
export async function fundCard(options: {
  prisma: Db;
  auth: AuthContext;
  cardId: string;
  request: Request;
  simulate?: CardIssuerFailure;
  requestId: string;
}): Promise<PreparedCardWrite<Result>> {
  const { prisma, auth, cardId, request, simulate, requestId } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  const found = await findCard(prisma, auth, cardId);
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
    prisma,
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
  return {
    status: 200,
    conflict: "CARD_LEDGER_CONFLICT",
    async commit(tx) {
      await beginCardWrite(tx);
      await lockProgramme(tx, programme.id);
      const card = await lockCard(tx, auth, cardId);
      if (card.status === "deactivated") throw deactivated();
      const funding = programmeFundingAccount(programme.id);
      const fundingBalance = await guardCardWrite("ledger", () => readAccountBalances(tx, auth, [funding]));
      const available = fundingBalance.get(funding) ?? 0n;
      if (available < amountMinor) {
        throw new ServiceError(
          "CARD_INSUFFICIENT_FUNDS",
          `The programme's funding account holds ${formatCardAmount(available, programme.fundingAsset)} ${programme.fundingAsset}; it does not cover ${request.amount}`,
        );
      }
      await callCardIssuer(() =>
        issuer.api.fundCard(issuer.ctx, { reference: card.providerReference, amount: request.amount, asset: request.asset }),
      );
      const transactionId = newId("ctx");
      await guardCardWrite("ledger", () =>
        tx.cardTransaction.create({
          data: {
            id: transactionId,
            ...scope,
            cardId,
            type: "funding",
            status: "posted",
            asset: programme.fundingAsset,
            amountMinor: amountMinor.toString(),
          },
        }),
      );
      const [[, creditId]] = (await postLedgerJournal(tx, auth, {
        journalId: transactionId,
        kind: "funding",
        programmeId: programme.id,
        cardId,
        asset: programme.fundingAsset,
        transfers: [{ from: funding, to: cardAvailableAccount(cardId), amountMinor }],
      })) as [[string, string]];
      const updated = await bumpCardVersion(tx, card);
      await recordActivity(tx, { ...scope, type: "card.funded", resourceId: transactionId, amountUsd: request.amount });
      const balance = await guardCardWrite("ledger", () => readCardBalance(tx, auth, cardId));
      return {
        card: toCardDto(updated, programme.fundingAsset, balance),
        ledgerEntryId: creditId,
        transactionId,
        simulated: true,
      };
    },
  };
}
