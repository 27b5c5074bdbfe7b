import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { findOwned } from "../../db/owned-by.ts";
import { type PaymentDto, toPaymentDto } from "./payment-dto.ts";

/** Another organization's payment is indistinguishable from a missing one. */
export async function getPayment(db: Queryable, { auth, id }: { auth: AuthContext; id: string }): Promise<PaymentDto> {
  return toPaymentDto(await findOwned(db, "Payment", id, auth, "Payment"));
}
