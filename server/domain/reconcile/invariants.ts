// What should never stand in a database, whatever failed between two commits (issue 26): `npm run check:invariants`
// (scripts/check-invariants.ts) runs these checks and names each offender. Read-only; across every organization.
//   - an open provider intent past its deadline plus a grace (the reconciler should have settled it);
//   - a bank transfer state without its event, or with more than one (each state of `statusHistory` has exactly one
//     `bank_transfer.<entered>` event), and an event whose state the transfer never entered — for transfers whose
//     intent is settled (an open one has not announced itself yet) and newer than the event retention;
//   - a bank transfer counted in the metric `bank_transfers.volume` (its `bank_transfer.created` activity) other than
//     once when the bank executed it (it has the bank's id) and never when it did not;
//   - an issuance request whose status has no event, or more than one, and an event whose status it never had
//     (mint and burn call no provider — see docs/architecture.md — but their status moves with their approval's);
//   - a custody transfer state without its event, or with more than one, and an event of a state it never entered
//     (server/domain/custody/custody-transfer-invariants.ts);
//   - a custody wallet state without its event, or with more than one, and an event of a state it never entered; a
//     custody transfer not counted once in `custody.transfers`, a wallet's activation counted other than once when
//     active and never otherwise (server/domain/custody/custody-wallet-invariants.ts);
//   - an Idempotency-Key record in progress past its lease with no open intent to answer it (a claim nothing finishes);
//   - a card state without its event (`card.issued` once per issued card, none for a `failed` one), a card ledger that
//     does not sum (a posting whose debits and credits differ), a card funding whose posting, metric or `card.funded`
//     events disagree with its state (server/domain/cards/card-invariants.ts).
// Not checked here yet: the provider-write families that have no intents yet.
import type { Queryable } from "../../db/kysely.ts";
import { BANK_TRANSFER_EVENT_OF } from "../bank-transfers/bank-transfer-events.ts";
import { cardInvariants } from "../cards/card-invariants.ts";
import { custodyTransferEvents } from "../custody/custody-transfer-invariants.ts";
import { custodyMetrics, custodyWalletEvents } from "../custody/custody-wallet-invariants.ts";
import type { IssuanceStatus } from "../treasury/issuance-request-dto.ts";
import { ISSUANCE_EVENT_OF } from "../treasury/issuance-request-events.ts";
import { eventCounts, intentSettled } from "./settled-events.ts";

export interface InvariantOptions {
  now: Date;
  /** How long past its deadline an open intent may stand (a reconciler run, a provider lookup, its backoff). */
  graceSeconds: number;
  /** Events older than this are purged (EVENT_RETENTION_DAYS): older transfers are not checked against them. */
  eventRetentionDays: number;
}

export interface Offender {
  check:
    | "intent_overdue"
    | "state_without_event"
    | "event_without_state"
    | "metric_disagrees"
    | "claim_abandoned"
    | "ledger_unbalanced"
    | "ledger_disagrees";
  id: string;
  detail: string;
}

export async function checkInvariants(db: Queryable, options: InvariantOptions): Promise<Offender[]> {
  return [
    ...(await overdueIntents(db, options)),
    ...(await bankTransferEvents(db, options)),
    ...(await bankTransferActivity(db, options)),
    ...(await issuanceRequestEvents(db, options)),
    ...(await custodyTransferEvents(db, options)),
    ...(await custodyWalletEvents(db, options)),
    ...(await custodyMetrics(db, options)),
    ...(await abandonedClaims(db, options)),
    ...(await cardInvariants(db, options)),
  ];
}

async function overdueIntents(db: Queryable, { now, graceSeconds }: InvariantOptions): Promise<Offender[]> {
  const rows = await db
    .selectFrom("ProviderIntent")
    .select(["id", "family", "resourceId", "dueAt", "attempts", "lastError"])
    .where("dueAt", "<", new Date(now.getTime() - graceSeconds * 1000))
    .execute();
  return rows.map((r) => ({
    check: "intent_overdue",
    id: r.id,
    detail: `${r.family} ${r.resourceId} due since ${r.dueAt.toISOString()}, ${r.attempts} attempt(s)${r.lastError ? `, last error: ${r.lastError}` : ""}`,
  }));
}

async function bankTransferEvents(db: Queryable, { now, eventRetentionDays }: InvariantOptions): Promise<Offender[]> {
  const since = new Date(now.getTime() - eventRetentionDays * 86_400_000);
  const transfers = await db
    .selectFrom("BankTransfer as t")
    .select(["t.id", "t.statusHistory"])
    .where("t.createdAt", ">", since)
    .where(intentSettled)
    .execute();
  const entered = new Map(
    transfers.map((t) => {
      const history = t.statusHistory as unknown as Array<{ status: string }>;
      return [t.id, history.map(({ status }) => BANK_TRANSFER_EVENT_OF[status] ?? `bank_transfer.${status}`)];
    }),
  );
  return eventOffenders(db, { prefix: "bank_transfer", noun: "transfer", entered, since });
}

/** Each issuance request's events: `created`; `approved` or `rejected` once its approval is decided; `expired` once the
 * sweeper announced its undecided approval's expiry — or should have (past `expiresAt` by more than the grace). Its
 * status is its approval's (issuance-request-dto.ts), so a decision or a sweep without the issuance event shows here. */
async function issuanceRequestEvents(db: Queryable, { now, graceSeconds, eventRetentionDays }: InvariantOptions): Promise<Offender[]> {
  const since = new Date(now.getTime() - eventRetentionDays * 86_400_000);
  const requests = await db
    .selectFrom("IssuanceRequest as ir")
    .innerJoin("ApprovalRequest as ar", "ar.id", "ir.approvalRequestId")
    .select(["ir.id", "ar.status", "ar.expiresAt", "ar.expirySweptAt"])
    .where("ir.createdAt", ">", since)
    .execute();
  const lateSince = now.getTime() - graceSeconds * 1000;
  const entered = new Map(
    requests.map((r) => {
      const statuses: IssuanceStatus[] = ["pending_approval"];
      if (r.status === "approved" || r.status === "rejected") statuses.push(r.status);
      const expired = r.expirySweptAt ? r.expiresAt <= r.expirySweptAt : r.expiresAt.getTime() < lateSince;
      if (r.status === "pending" && expired) statuses.push("expired");
      return [r.id, statuses.map((status) => ISSUANCE_EVENT_OF[status])];
    }),
  );
  return eventOffenders(db, { prefix: "issuance_request", noun: "issuance request", entered, since });
}

/** Of one resource type (`<prefix>.<entered>` events): each type in `entered` (per checked resource, the event of each
 * state it entered) stands exactly once, and no event of a checked resource names a state it never entered. */
async function eventOffenders(
  db: Queryable,
  { prefix, noun, entered, since }: { prefix: string; noun: string; entered: Map<string, string[]>; since: Date },
): Promise<Offender[]> {
  const counted = await eventCounts(db, `${prefix}.`, since);
  const offenders: Offender[] = [];
  const known = new Set<string>();
  for (const [id, types] of entered) {
    for (const type of new Set(types)) {
      const key = `${id} ${type}`;
      known.add(key);
      const count = counted.get(id)?.get(type) ?? 0;
      if (count !== 1) offenders.push({ check: "state_without_event", id, detail: `${type}: ${count} event(s), expected 1` });
    }
  }
  for (const id of entered.keys()) {
    for (const type of counted.get(id)?.keys() ?? []) {
      if (!known.has(`${id} ${type}`))
        offenders.push({ check: "event_without_state", id, detail: `${type} for a state the ${noun} never entered` });
    }
  }
  return offenders;
}

async function bankTransferActivity(db: Queryable, { now, eventRetentionDays }: InvariantOptions): Promise<Offender[]> {
  const rows = await db
    .selectFrom("BankTransfer as t")
    .leftJoin("ActivityEvent as a", (join) => join.onRef("a.resourceId", "=", "t.id").on("a.type", "=", "bank_transfer.created"))
    .select(["t.id", "t.providerTransferId", (eb) => eb.fn.count<string>("a.id").as("counted")])
    .where("t.createdAt", ">", new Date(now.getTime() - eventRetentionDays * 86_400_000))
    .where(intentSettled)
    .groupBy(["t.id", "t.providerTransferId"])
    .execute();
  return rows.flatMap((r): Offender[] => {
    const expected = r.providerTransferId === null ? 0 : 1;
    return Number(r.counted) === expected
      ? []
      : [{ check: "metric_disagrees", id: r.id, detail: `counted ${r.counted} time(s) in bank_transfers.volume, expected ${expected}` }];
  });
}

async function abandonedClaims(db: Queryable, { now, graceSeconds }: InvariantOptions): Promise<Offender[]> {
  const rows = await db
    .selectFrom("IdempotencyRecord as r")
    .select(["r.id", "r.method", "r.path", "r.lockedUntil"])
    .where("r.state", "=", "in_progress")
    .where("r.lockedUntil", "<", new Date(now.getTime() - graceSeconds * 1000))
    .where("r.expiresAt", ">", now)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("ProviderIntent as i").select("i.id").whereRef("i.idempotencyRecordId", "=", "r.id"))),
    )
    .execute();
  return rows.map((r) => ({
    check: "claim_abandoned",
    id: r.id,
    detail: `${r.method} ${r.path} in progress, lease ended ${r.lockedUntil.toISOString()}`,
  }));
}
