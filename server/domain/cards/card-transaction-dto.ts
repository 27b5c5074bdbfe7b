import type { components } from "../../generated/openapi.ts";
import { decimalToMinor, formatCardAmount } from "./card-amount.ts";
import type { CardTransactionRow } from "./card-rows.ts";

export type CardTransactionDto = components["schemas"]["CardTransaction"];
export type MerchantDto = components["schemas"]["Merchant"];

export function merchantDto(row: {
  merchantName: string | null;
  merchantCategory: string | null;
  merchantCity: string | null;
  merchantCountry: string | null;
}): MerchantDto | null {
  if (row.merchantName === null || row.merchantCategory === null) return null;
  return {
    name: row.merchantName,
    categoryCode: row.merchantCategory,
    ...(row.merchantCity !== null ? { city: row.merchantCity } : {}),
    ...(row.merchantCountry !== null ? { country: row.merchantCountry } : {}),
  };
}

export function toCardTransactionDto(row: CardTransactionRow): CardTransactionDto {
  return {
    transactionId: row.id,
    type: row.type as CardTransactionDto["type"],
    status: row.status as CardTransactionDto["status"],
    amount: formatCardAmount(decimalToMinor(row.amountMinor), row.asset),
    asset: row.asset as CardTransactionDto["asset"],
    merchant: merchantDto(row),
    authorizationId: row.authorizationId,
    declineReason: row.declineReason as CardTransactionDto["declineReason"],
    createdAt: row.createdAt.toISOString(),
  };
}
