// Expiry is derived on read (approvalStatusOf: past expiresAt while pending, or approved and unused), so no write ever
// moves a request to `expired`. The sweeper makes that moment an event: approval_request.expired, and
// issuance_request.expired for an issuance request whose approval expired undecided. It marks every request past its
// expiresAt (`expirySweptAt`) in the statement that claims it, FOR UPDATE SKIP LOCKED, so two workers (or two
// instances) never claim the same request and each expiry is emitted exactly once. The scheduler runs it
// (server/scheduler/approval-expiry-job.ts); a request decided or used before it expired is marked without an event.

import { runBackgroundUnitOfWork } from "../../db/background-unit-of-work.ts";
import type { Queryable } from "../../db/kysely.ts";
import { emitIssuanceEvent, issuanceRequestsOf } from "../treasury/issuance-request-events.ts";
import { approvalStatusOf } from "./approval-dto.ts";
import { emitApprovalEvent } from "./approval-events.ts";

export const SWEEP_BATCH = 100;

/** One batch: returns how many requests it marked (call again while it returns `limit`) and how many expired. */
export async function sweepExpiredApprovals(
  db: Queryable,
  { now, limit = SWEEP_BATCH }: { now: Date; limit?: number },
): Promise<{ swept: number; expired: number }> {
  // The common case, nothing due, costs one indexed read and no transaction.
  const due = await db
    .selectFrom("ApprovalRequest")
    .select("id")
    .where("expirySweptAt", "is", null)
    .where("expiresAt", "<=", now)
    .limit(1)
    .executeTakeFirst();
  if (!due) return { swept: 0, expired: 0 };
  return runBackgroundUnitOfWork(db, now, async (uow) => {
    const swept = await uow.tx
      .updateTable("ApprovalRequest")
      .set({ expirySweptAt: now })
      .where("id", "in", (eb) =>
        eb
          .selectFrom("ApprovalRequest")
          .select("id")
          .where("expirySweptAt", "is", null)
          .where("expiresAt", "<=", now)
          .orderBy("expiresAt")
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      // Re-checked on the locked row: a concurrent sweeper that marked it first leaves nothing to claim.
      .where("expirySweptAt", "is", null)
      .returningAll()
      .execute();
    const expired = swept.filter((row) => approvalStatusOf(row, now) === "expired");
    const issuanceScopes = new Map<string, { organizationId: string; environment: string; ids: string[] }>();
    for (const row of expired) {
      emitApprovalEvent(uow, row, "approval_request.expired");
      // An issuance request reads `expired` only when its approval expired undecided (an approved one stays approved).
      if (row.kind === "issuance" && row.status === "pending") {
        const key = `${row.organizationId}\n${row.environment}`;
        const scope = issuanceScopes.get(key) ?? { organizationId: row.organizationId, environment: row.environment, ids: [] };
        scope.ids.push(row.id);
        issuanceScopes.set(key, scope);
      }
    }
    for (const { ids, ...scope } of issuanceScopes.values()) {
      for (const issuance of await issuanceRequestsOf(uow.tx, scope, ids, now)) emitIssuanceEvent(uow, issuance, scope);
    }
    return { swept: swept.length, expired: expired.length };
  });
}
