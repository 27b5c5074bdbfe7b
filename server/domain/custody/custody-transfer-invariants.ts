// check:invariants for custody transfers (issue 26; server/domain/reconcile/invariants.ts lists the checks): each state a
// transfer has passed through has exactly one `custody_transfer.<entered>` event, and no event names a state it never
// entered. A custody transfer keeps no history of its states, but its path to each state is fixed (CustodyTransferStatus):
// the states before it are known — save `submitted` before `failed`, which a submission never executed skips.
// Checked for transfers whose intent is settled (an open one is the reconciler's) and newer than the event retention.
// `statusEventOffenders` is that comparison for any such resource (custody wallets too: custody-wallet-invariants.ts).
import type { Queryable } from "../../db/kysely.ts";
import type { EventType } from "../events/event-types.ts";
import { eventCounts, intentSettled } from "../reconcile/settled-events.ts";

/** An offender as checkInvariants names it (server/domain/reconcile/invariants.ts, which imports this file). */
interface Offender {
  check: "state_without_event" | "event_without_state";
  id: string;
  detail: string;
}

const CREATED: EventType = "custody_transfer.created";
const APPROVED: EventType = "custody_transfer.approved";
const SUBMITTED: EventType = "custody_transfer.submitted";

/** The events a transfer in each status has: `required` exactly once each, `optional` at most once. */
const EVENTS_BY_STATUS: Readonly<Record<string, { required: EventType[]; optional?: EventType[] }>> = {
  pending_approval: { required: [CREATED] },
  approved: { required: [CREATED, APPROVED] },
  submitted: { required: [CREATED, APPROVED, SUBMITTED] },
  completed: { required: [CREATED, APPROVED, SUBMITTED, "custody_transfer.completed"] },
  failed: { required: [CREATED, APPROVED, "custody_transfer.failed"], optional: [SUBMITTED] },
  rejected: { required: [CREATED, "custody_transfer.rejected"] },
  cancelled: { required: [CREATED, "custody_transfer.cancelled"] },
};

export async function custodyTransferEvents(
  db: Queryable,
  { now, eventRetentionDays }: { now: Date; eventRetentionDays: number },
): Promise<Offender[]> {
  const since = new Date(now.getTime() - eventRetentionDays * 86_400_000);
  const transfers = await db
    .selectFrom("CustodyTransfer as t")
    .select(["t.id", "t.status"])
    .where("t.createdAt", ">", since)
    .where(intentSettled)
    .execute();
  return statusEventOffenders(db, {
    prefix: "custody_transfer.",
    noun: "transfer",
    rows: transfers,
    eventsByStatus: EVENTS_BY_STATUS,
    since,
  });
}

/** The events each resource's status requires (`required` exactly once each, `optional` at most once), and no event of
 * a state it never entered. For resources that keep no history of their states but whose path to each is fixed. */
export async function statusEventOffenders(
  db: Queryable,
  options: {
    prefix: string;
    noun: string;
    rows: Array<{ id: string; status: string }>;
    eventsByStatus: Readonly<Record<string, { required: EventType[]; optional?: EventType[] }>>;
    since: Date;
  },
): Promise<Offender[]> {
  const counted = await eventCounts(db, options.prefix, options.since);
  const offenders: Offender[] = [];
  for (const row of options.rows) {
    const expected = options.eventsByStatus[row.status] ?? { required: [] };
    const seen = counted.get(row.id) ?? new Map<string, number>();
    for (const type of expected.required) {
      const count = seen.get(type) ?? 0;
      if (count !== 1) offenders.push({ check: "state_without_event", id: row.id, detail: `${type}: ${count} event(s), expected 1` });
    }
    for (const type of expected.optional ?? []) {
      const count = seen.get(type) ?? 0;
      if (count > 1) offenders.push({ check: "state_without_event", id: row.id, detail: `${type}: ${count} event(s), expected 1` });
    }
    for (const type of seen.keys()) {
      if (!expected.required.includes(type as EventType) && !expected.optional?.includes(type as EventType)) {
        offenders.push({
          check: "event_without_state",
          id: row.id,
          detail: `${type} for a state the ${options.noun} (${row.status}) never entered`,
        });
      }
    }
  }
  return offenders;
}
