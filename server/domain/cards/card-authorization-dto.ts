import type { components } from "../../generated/openapi.ts";
import { decimalToMinor, formatCardAmount } from "./card-amount.ts";
import { toCardBalanceDto } from "./card-dto.ts";
import type { CardAuthorizationRow, CardTransactionRow } from "./card-rows.ts";
import { merchantDto, toCardTransactionDto } from "./card-transaction-dto.ts";
import type { CardBalanceMinor } from "./read-card-balance.ts";

export type CardAuthorizationDto = components["schemas"]["CardAuthorization"];

/** Minor units still held by an authorization. */
export function heldMinor(authorization: CardAuthorizationRow): bigint {
  if (authorization.status !== "pending") return 0n;
  return (
    decimalToMinor(authorization.amountMinor) - decimalToMinor(authorization.capturedMinor) - decimalToMinor(authorization.reversedMinor)
  );
}

export function toCardAuthorizationDto(
  authorization: CardAuthorizationRow,
  created: CardTransactionRow[],
  balance: CardBalanceMinor,
): CardAuthorizationDto {
  const { asset } = authorization;
  return {
    authorizationId: authorization.id,
    cardId: authorization.cardId,
    status: authorization.status as CardAuthorizationDto["status"],
    approved: authorization.status !== "declined",
    declineReason: authorization.declineReason as CardAuthorizationDto["declineReason"],
    amount: formatCardAmount(decimalToMinor(authorization.amountMinor), asset),
    pendingAmount: formatCardAmount(heldMinor(authorization), asset),
    capturedAmount: formatCardAmount(decimalToMinor(authorization.capturedMinor), asset),
    reversedAmount: formatCardAmount(decimalToMinor(authorization.reversedMinor), asset),
    asset: asset as CardAuthorizationDto["asset"],
    merchant: merchantDto(authorization) ?? { name: authorization.merchantName, categoryCode: authorization.merchantCategory },
    transactions: created.map(toCardTransactionDto),
    balance: toCardBalanceDto(balance, asset),
    simulated: true,
    createdAt: authorization.createdAt.toISOString(),
    updatedAt: authorization.updatedAt.toISOString(),
  };
}
