import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import { toPaymentDto } from "./payment-dto.ts";

export async function listPayments(options: {
  prisma: Db;
  auth: AuthContext;
  limit: number;
  offset: number;
}): Promise<components["schemas"]["PaymentList"]> {
  const { prisma, auth, limit, offset } = options;
  const where = { organizationId: auth.organizationId, environment: auth.environment };
  const [count, payments] = await Promise.all([
    prisma.payment.count({ where }),
    prisma.payment.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, skip: offset }),
  ]);
  return { count, limit, offset, data: payments.map(toPaymentDto) };
}
