import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { toPaymentDto } from "./payment-dto.ts";

export async function listPayments(
  db: Queryable,
  options: {
    auth: AuthContext;
    limit: number;
    offset: number;
  },
): Promise<components["schemas"]["PaymentList"]> {
  const { auth, limit, offset } = options;
  const mine = db.selectFrom("Payment").where(ownedBy(auth));
  const [counted, payments] = await Promise.all([
    mine.select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow(),
    mine.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
  ]);
  return { count: Number(counted.count), limit, offset, data: payments.map(toPaymentDto) };
}
