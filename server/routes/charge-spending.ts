// The money-moving operations count what they move against the caller's spending limits (issue 37) as the first step of
// their unit of work, so the spend commits with the effect and a replay never reaches it. What each one moves is read
// here, at the edge, from its validated body; server/domain/spending-limits/charge-spending-limit.ts does the counting.
import type { UnitOfWork } from "../db/unit-of-work/index.ts";
import { chargeSpendingLimit, type MoneyMovement } from "../domain/spending-limits/charge-spending-limit.ts";
import type { OperationId, RouteContext } from "./route.ts";

/** Counts `movement` against the key's limits (no statement at all for a key without limits). */
export function chargeSpending<K extends OperationId>(
  context: Pick<RouteContext<K>, "auth" | "idempotencyScope">,
  uow: UnitOfWork,
  movement: MoneyMovement,
): Promise<void> {
  return chargeSpendingLimit(uow, { auth: context.auth, movement, idempotencyKey: context.idempotencyScope });
}
