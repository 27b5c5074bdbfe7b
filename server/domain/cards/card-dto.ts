import type { components } from "../../generated/openapi.ts";
import { formatCardAmount } from "./card-amount.ts";
import { toPendingUpdateDto } from "./card-pending-update.ts";
import type { CardRow } from "./card-rows.ts";
import type { CardBalanceMinor } from "./read-card-balance.ts";
import { storedLimits } from "./validate-card-limits.ts";

export type CardDto = components["schemas"]["Card"];
export type CardBalanceDto = components["schemas"]["CardBalance"];

export function toCardBalanceDto(balance: CardBalanceMinor, asset: string): CardBalanceDto {
  return {
    available: formatCardAmount(balance.availableMinor, asset),
    pending: formatCardAmount(balance.pendingMinor, asset),
    ledger: formatCardAmount(balance.availableMinor + balance.pendingMinor, asset),
    asset: asset as CardBalanceDto["asset"],
  };
}

/** Whether the issuer issued the card: not `pending` (its issuing unconfirmed) nor `failed` (never issued). */
export const isIssued = (card: Pick<CardRow, "status">): boolean => card.status !== "pending" && card.status !== "failed";

/** The card as the API shows it: never a card number or CVC (none is stored). */
export function toCardDto(card: CardRow, asset: string, balance: CardBalanceMinor): CardDto {
  return {
    cardId: card.id,
    programmeId: card.programmeId,
    cardholderId: card.cardholderId,
    status: card.status as CardDto["status"],
    statusReason: card.statusReason,
    pendingUpdate: toPendingUpdateDto(card.pendingUpdate),
    // Not issued (`pending`: its issuer's answer is being confirmed; `failed`): the issuer's details are unknown.
    ...(isIssued(card)
      ? { last4: card.last4, expMonth: card.expMonth, expYear: card.expYear }
      : { last4: null, expMonth: null, expYear: null }),
    brand: card.brand as CardDto["brand"],
    limits: storedLimits(card.limits),
    balance: toCardBalanceDto(balance, asset),
    simulated: true,
    createdAt: card.createdAt.toISOString(),
    updatedAt: card.updatedAt.toISOString(),
  };
}
