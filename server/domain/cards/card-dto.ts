import type { components } from "../../generated/openapi.ts";
import { formatCardAmount } from "./card-amount.ts";
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

/** The card as the API shows it: never a card number or CVC (none is stored). */
export function toCardDto(card: CardRow, asset: string, balance: CardBalanceMinor): CardDto {
  return {
    cardId: card.id,
    programmeId: card.programmeId,
    cardholderId: card.cardholderId,
    status: card.status as CardDto["status"],
    statusReason: card.statusReason,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    brand: card.brand as CardDto["brand"],
    limits: storedLimits(card.limits),
    balance: toCardBalanceDto(balance, asset),
    simulated: true,
    createdAt: card.createdAt.toISOString(),
    updatedAt: card.updatedAt.toISOString(),
  };
}
