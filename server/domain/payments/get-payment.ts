import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import { type PaymentDto, toPaymentDto } from "./payment-dto.ts";

/** Another organization's payment is indistinguishable from a missing one. */
export async function getPayment({ prisma, auth, id }: { prisma: Db; auth: AuthContext; id: string }): Promise<PaymentDto> {
  const payment = await prisma.payment.findFirst({ where: { id, organizationId: auth.organizationId, environment: auth.environment } });
  if (!payment) throw notFound("Payment");
  return toPaymentDto(payment);
}
