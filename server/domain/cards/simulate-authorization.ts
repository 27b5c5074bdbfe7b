import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { authorizedSince, startOfUtcDay, startOfUtcMonth } from "./authorized-since.ts";
import { beginCardWrite } from "./begin-card-write.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { cardAvailableAccount, cardPendingAccount, programmeFundingAccount } from "./card-accounts.ts";
import { parseCardAmount } from "./card-amount.ts";
import { type CardAuthorizationDto, toCardAuthorizationDto } from "./card-authorization-dto.ts";
import { decideAuthorization } from "./decide-authorization.ts";
import { findCard } from "./find-card.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { lockCard } from "./lock-card.ts";
import { lockProgramme } from "./lock-programme.ts";
import { postLedgerJournal } from "./post-ledger-journal.ts";
import type { PreparedCardWrite } from "./prepared-card-write.ts";
import { readAccountBalances } from "./read-account-balances.ts";
import { readCardBalance } from "./read-card-balance.ts";
import { requireTestHelperAccess } from "./require-test-helper-access.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";
import { storedLimits, validateCardLimits } from "./validate-card-limits.ts";

type Request = components["schemas"]["SimulateAuthorizationRequest"];

export const DEFAULT_SANDBOX_MERCHANT: Request["merchant"] & object = { name: "Sandbox Merchant", categoryCode: "5999" };

/** Sandbox test helper: a merchant's authorization request on the card. Approved → a hold moves funds to the card's
 * pending account; declined → recorded with its reason, no ledger effect. */
export async function simulateAuthorization(options: {
  prisma: Db;
  auth: AuthContext;
  cardId: string;
  request: Request;
  simulate?: CardIssuerFailure;
}): Promise<PreparedCardWrite<CardAuthorizationDto>> {
  const { prisma, auth, cardId, request, simulate } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  requireTestHelperAccess(auth);
  const { programme } = await findCard(prisma, auth, cardId);
  const asset = programme.fundingAsset;
  const amountMinor = parseCardAmount(request.amount, asset, "amount");
  const merchant = request.merchant ?? DEFAULT_SANDBOX_MERCHANT;
  const justInTime = programme.fundingModel === "just_in_time";
  const scope = { organizationId: auth.organizationId, environment: auth.environment };

  return {
    status: 201,
    conflict: "CARD_LEDGER_CONFLICT",
    async commit(tx) {
      await beginCardWrite(tx);
      if (justInTime) await lockProgramme(tx, programme.id);
      const card = await lockCard(tx, auth, cardId);
      await callCardIssuer(() =>
        issuer.api.authorize(issuer.ctx, {
          reference: card.providerReference,
          amount: request.amount,
          merchantCategory: merchant.categoryCode,
        }),
      );
      const now = new Date();
      const source = justInTime ? programmeFundingAccount(programme.id) : cardAvailableAccount(cardId);
      const [funds, today, month] = await guardCardWrite("ledger", async () => [
        (await readAccountBalances(tx, auth, [source])).get(source) ?? 0n,
        await authorizedSince(tx, cardId, startOfUtcDay(now)),
        await authorizedSince(tx, cardId, startOfUtcMonth(now)),
      ]);
      const declineReason = decideAuthorization({
        cardStatus: card.status,
        limits: validateCardLimits(storedLimits(card.limits), asset),
        merchantCategory: merchant.categoryCode,
        amountMinor,
        authorizedTodayMinor: today,
        authorizedThisMonthMinor: month,
        fundsMinor: funds,
      });
      const merchantColumns = {
        merchantName: merchant.name,
        merchantCategory: merchant.categoryCode,
        merchantCity: merchant.city ?? null,
        merchantCountry: merchant.country ?? null,
      };
      const authorization = await guardCardWrite("record", () =>
        tx.cardAuthorization.create({
          data: {
            id: newId("cauth"),
            ...scope,
            cardId,
            programmeId: programme.id,
            status: declineReason ? "declined" : "pending",
            declineReason,
            asset,
            amountMinor: amountMinor.toString(),
            ...merchantColumns,
            createdAt: now,
            updatedAt: now,
          },
        }),
      );
      const transaction = await guardCardWrite("ledger", () =>
        tx.cardTransaction.create({
          data: {
            id: newId("ctx"),
            ...scope,
            cardId,
            authorizationId: authorization.id,
            type: "authorization",
            status: declineReason ? "declined" : "pending",
            declineReason,
            asset,
            amountMinor: amountMinor.toString(),
            ...merchantColumns,
          },
        }),
      );
      if (!declineReason) {
        await postLedgerJournal(tx, auth, {
          journalId: transaction.id,
          kind: "authorization_hold",
          programmeId: programme.id,
          cardId,
          asset,
          transfers: [{ from: source, to: cardPendingAccount(cardId), amountMinor }],
        });
      }
      await recordActivity(tx, {
        ...scope,
        type: declineReason ? "card.authorization_declined" : "card.authorized",
        resourceId: authorization.id,
      });
      const balance = await guardCardWrite("ledger", () => readCardBalance(tx, auth, cardId));
      return toCardAuthorizationDto(authorization, [transaction], balance);
    },
  };
}
