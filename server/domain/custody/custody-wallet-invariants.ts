// check:invariants for custody (issue 26; server/domain/reconcile/invariants.ts lists the checks):
//   - each state a custody wallet has passed through has exactly one `custody_wallet.<entered>` event, and no event names
//     a state it never entered. Its path to each state is fixed (CustodyWalletStatus); `processing` lies on the way to
//     `active` or `failed` only when the custodian's answer was lost, so it is optional there;
//   - the activity rows the metrics read: every custody transfer counted once in `custody.transfers` (its
//     `custody_transfer.created` activity), and every custody wallet's activation (`custody_wallet.created`) once when it
//     is `active` and never otherwise — no catalogue metric counts wallets yet, but one built on that activity (as the
//     bank transfer volume is) must be right, including a wallet the reconciler activated.
// Checked for resources whose intent is settled (an open one is the reconciler's) and newer than the event retention.
import type { Queryable } from "../../db/kysely.ts";
import type { EventType } from "../events/event-types.ts";
import { activityCounts, intentSettled } from "../reconcile/settled-events.ts";
import { statusEventOffenders } from "./custody-transfer-invariants.ts";

/** An offender as checkInvariants names it (server/domain/reconcile/invariants.ts, which imports this file). */
interface Offender {
  check: "state_without_event" | "event_without_state" | "metric_disagrees";
  id: string;
  detail: string;
}

type Window = { now: Date; eventRetentionDays: number };
const sinceOf = ({ now, eventRetentionDays }: Window) => new Date(now.getTime() - eventRetentionDays * 86_400_000);

const CREATED: EventType = "custody_wallet.created";
const PROCESSING: EventType = "custody_wallet.processing";

/** The events a wallet in each status has: `required` exactly once each, `optional` at most once. */
const EVENTS_BY_STATUS: Readonly<Record<string, { required: EventType[]; optional?: EventType[] }>> = {
  pending_approval: { required: [CREATED] },
  processing: { required: [CREATED, PROCESSING] },
  active: { required: [CREATED, "custody_wallet.activated"], optional: [PROCESSING] },
  rejected: { required: [CREATED, "custody_wallet.rejected"] },
  failed: { required: [CREATED, "custody_wallet.failed"], optional: [PROCESSING] },
};

/** Custody wallets whose activation is settled, newer than the window. */
function settledWallets(db: Queryable, since: Date) {
  return db.selectFrom("CustodyWallet as t").select(["t.id", "t.status"]).where("t.createdAt", ">", since).where(intentSettled).execute();
}

export async function custodyWalletEvents(db: Queryable, window: Window): Promise<Offender[]> {
  const since = sinceOf(window);
  const rows = await settledWallets(db, since);
  return statusEventOffenders(db, { prefix: "custody_wallet.", noun: "wallet", rows, eventsByStatus: EVENTS_BY_STATUS, since });
}

export async function custodyMetrics(db: Queryable, window: Window): Promise<Offender[]> {
  const since = sinceOf(window);
  const offenders: Offender[] = [];
  const transfers = await db.selectFrom("CustodyTransfer").select("id").where("createdAt", ">", since).execute();
  const transfersCounted = await activityCounts(db, "custody_transfer.created", since);
  for (const { id } of transfers) {
    const counted = transfersCounted.get(id) ?? 0;
    if (counted !== 1)
      offenders.push({ check: "metric_disagrees", id, detail: `counted ${counted} time(s) in custody.transfers, expected 1` });
  }
  const wallets = await settledWallets(db, since);
  const activations = await activityCounts(db, "custody_wallet.created", since);
  for (const { id, status } of wallets) {
    const counted = activations.get(id) ?? 0;
    const expected = status === "active" ? 1 : 0;
    if (counted !== expected) {
      offenders.push({
        check: "metric_disagrees",
        id,
        detail: `activation counted ${counted} time(s) (custody_wallet.created activity) for a wallet that is ${status}, expected ${expected}`,
      });
    }
  }
  return offenders;
}
