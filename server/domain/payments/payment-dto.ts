import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";
import { formatMinor, numericToMinor } from "../../lib/money/minor-units.ts";
import { ASSET_DECIMALS, type Stablecoin } from "../money/assets.ts";
import { FEE_DECIMALS } from "./fees.ts";

export type PaymentDto = components["schemas"]["Payment"];

const canonical = (value: string, decimals: number) => formatMinor(numericToMinor(value, decimals), decimals);

export function toPaymentDto(payment: Selectable<DB["Payment"]>): PaymentDto {
  return {
    id: payment.id,
    status: "confirmed",
    amount: canonical(payment.amount, ASSET_DECIMALS[payment.stablecoin as Stablecoin]),
    stablecoin: payment.stablecoin as PaymentDto["stablecoin"],
    chain: payment.chain as PaymentDto["chain"],
    toAddress: payment.toAddress,
    txHash: payment.txHash,
    fees: canonical(payment.fees, FEE_DECIMALS),
    metadata: (payment.metadata as Record<string, string> | null) ?? null,
    createdAt: payment.createdAt.toISOString(),
  };
}
