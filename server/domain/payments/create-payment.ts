import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { validationError } from "../../errors/service-error.ts";
import { newId } from "../../lib/ids.ts";
import { inJsonbKeyOrder } from "../../lib/json/jsonb-key-order.ts";
import { formatMinor, parseDecimalToMinor } from "../../lib/money/minor-units.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type Chain, isValidAddress, mockTxHash } from "../chains/addresses.ts";
import { emitEvent } from "../events/emit-event.ts";
import { ASSET_DECIMALS, type Stablecoin } from "../money/assets.ts";
import { FEE_DECIMALS, sandboxFeeMicros } from "./fees.ts";
import { type PaymentDto, toPaymentDto } from "./payment-dto.ts";

export interface CreatePaymentOptions {
  auth: AuthContext;
  amount: string;
  stablecoin: Stablecoin;
  toAddress: string;
  chain: Chain;
  metadata?: Record<string, string>;
}

/** Creates a sandbox payment: confirmed at once, with a mock txHash and the deterministic sandbox fee. */
export async function createPayment(uow: UnitOfWork, options: CreatePaymentOptions): Promise<PaymentDto> {
  const { auth, amount, stablecoin, toAddress, chain, metadata } = options;
  const decimals = ASSET_DECIMALS[stablecoin];
  const amountMinor = parseDecimalToMinor(amount, decimals);
  if (amountMinor === null)
    throw validationError("/body/amount", `must be a decimal with at most ${decimals} decimal places for ${stablecoin}`);
  if (amountMinor === 0n) throw validationError("/body/amount", "must be greater than zero");
  if (!isValidAddress(chain, toAddress)) throw validationError("/body/toAddress", `is not a valid ${chain} address`);
  const id = newId("pay");
  const amountText = formatMinor(amountMinor, decimals);
  // Nothing in this request reads the row back: it is written with the commit, and the answer is built from it as a
  // GET would read it (metadata in jsonb's key order).
  const payment = {
    id,
    organizationId: auth.organizationId,
    environment: auth.environment,
    status: "confirmed",
    amount: amountText,
    stablecoin,
    chain,
    toAddress,
    txHash: mockTxHash(chain),
    fees: formatMinor(sandboxFeeMicros(chain, amountMinor, decimals), FEE_DECIMALS),
    metadata: metadata === undefined ? null : inJsonbKeyOrder(metadata),
    createdAt: uow.now,
  };
  uow.insertLater("Payment", { ...payment, metadata: payment.metadata === null ? null : JSON.stringify(payment.metadata) });
  recordActivity(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "payment.created",
    resourceId: id,
    amountUsd: amountText,
  });
  const dto = toPaymentDto(payment);
  // A sandbox payment: confirmed at once with a mock txHash.
  emitEvent(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "payment.created",
    resourceId: id,
    data: dto,
    simulated: true,
  });
  return dto;
}
