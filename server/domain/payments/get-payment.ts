import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { notFound } from "../../errors/service-error.ts";
import { type PaymentDto, toPaymentDto } from "./payment-dto.ts";

/** Another organization's payment is indistinguishable from a missing one. */
export async function getPayment({ db, auth, id }: { db: Queryable; auth: AuthContext; id: string }): Promise<PaymentDto> {
  const payment = await db
    .selectFrom("Payment")
    .selectAll()
    .where("id", "=", id)
    .where("organizationId", "=", auth.organizationId)
    .where("environment", "=", auth.environment)
    .executeTakeFirst();
  if (!payment) throw notFound("Payment");
  return toPaymentDto(payment);
}
