// check:invariants for cards, the card ledger and card fundings (issue 26; server/domain/reconcile/invariants.ts lists
// the checks). Read-only; across every organization.
//   - a card state without its event: an issued card (`active`, `frozen`, `deactivated`) has exactly one `card.issued`
//     event, a `failed` one none, and a `pending` one has an open intent (else nothing will ever settle it); the same for
//     card programmes and `card_programme.created` (`active`: one; `failed`: none);
//   - a card ledger that does not sum: a posting (journal) whose debits and credits differ, per asset;
//   - a funding whose posting disagrees with its state: `posted` credits the card's available account with its amount,
//     `failed` nets to zero (written back), and a `pending` one has an open intent (else nothing will ever settle it);
//   - a funding counted in the metric cards.funding.volume (its `card.funded` activity) other than once when posted and
//     never otherwise; and per card, as many `card.funded` events as posted fundings.
//   - a card whose status or limits change is pending (`pendingUpdate`) with no open intent (nothing will settle it).
// Cards and fundings whose intent is open are the reconciler's and are not held to these yet.
import { type SqlBool, sql } from "kysely";
import type { Queryable } from "../../db/kysely.ts";
import { eventCounts, intentSettled } from "../reconcile/settled-events.ts";
import { decimalToMinor } from "./card-amount.ts";

/** An offender as checkInvariants names it (server/domain/reconcile/invariants.ts, which imports this file). */
interface Offender {
  check: "ledger_unbalanced" | "ledger_disagrees" | "metric_disagrees" | "state_without_event" | "event_without_state";
  id: string;
  detail: string;
}

type InvariantOptions = { now: Date; eventRetentionDays: number };

export async function cardInvariants(db: Queryable, options: InvariantOptions): Promise<Offender[]> {
  const since = new Date(options.now.getTime() - options.eventRetentionDays * 86_400_000);
  const programmes = await db
    .selectFrom("CardProgramme as t")
    .select(["t.id", "t.status"])
    .where("t.createdAt", ">", since)
    .where(intentSettled)
    .execute();
  const cards = await db
    .selectFrom("Card as t")
    .select(["t.id", "t.status"])
    .where("t.createdAt", ">", since)
    .where(intentSettled)
    .execute();
  return [
    ...createdOnce(programmes, "programme", "card_programme.created", await eventCounts(db, "card_programme.created", since)),
    ...createdOnce(cards, "card", "card.issued", await eventCounts(db, "card.issued", since)),
    ...(await strandedChanges(db)),
    ...(await unbalancedJournals(db)),
    ...(await fundings(db, options)),
  ];
}

/** Each settled resource's creation event `type` stands once when the issuer created it, never when it `failed`; a
 * `pending` one needs an open intent. `events`: the counts of `type` per resource. */
function createdOnce(
  resources: Array<{ id: string; status: string }>,
  noun: string,
  type: string,
  events: Map<string, Map<string, number>>,
): Offender[] {
  const offenders: Offender[] = [];
  const checked = new Set<string>();
  for (const { id, status } of resources) {
    checked.add(id);
    if (status === "pending") {
      offenders.push({ check: "state_without_event", id, detail: `${noun} pending with no open intent: nothing will settle it` });
      continue;
    }
    const sent = events.get(id)?.get(type) ?? 0;
    const expected = status === "failed" ? 0 : 1;
    if (sent !== expected) {
      offenders.push({
        check: sent < expected ? "state_without_event" : "event_without_state",
        id,
        detail: `${type}: ${sent} event(s), expected ${expected} (${status})`,
      });
    }
  }
  for (const id of events.keys()) {
    if (!checked.has(id)) offenders.push({ check: "event_without_state", id, detail: `${type} for a ${noun} that does not stand` });
  }
  return offenders;
}

/** A status or limits change pending on a card (`pendingUpdate`) with no open intent: nothing will ever confirm it or
 * put the card back, and the card takes no other change. */
async function strandedChanges(db: Queryable): Promise<Offender[]> {
  const rows = await db
    .selectFrom("Card as t")
    .select(["t.id", sql<string>`"t"."pendingUpdate"->>'type'`.as("type")])
    .where("t.pendingUpdate", "is not", null)
    .where(intentSettled)
    .execute();
  return rows.map((r) => ({
    check: "state_without_event",
    id: r.id,
    detail: `a ${r.type} change pending with no open intent: nothing will confirm it or put the card back`,
  }));
}

/** credit − debit of the entries in the group, as numeric text. */
const NET = sql<string>`cast(sum(case when "direction" = 'credit' then "amountMinor" else -"amountMinor" end) as text)`;

async function unbalancedJournals(db: Queryable): Promise<Offender[]> {
  const rows = await db
    .selectFrom("CardLedgerEntry")
    .select(["journalId", "asset", NET.as("net")])
    .groupBy(["journalId", "asset"])
    .having(sql`sum(case when "direction" = 'credit' then "amountMinor" else -"amountMinor" end)`, "<>", 0)
    .execute();
  return rows.map((r) => ({
    check: "ledger_unbalanced",
    id: r.journalId,
    detail: `${r.asset} posting does not balance: credits − debits = ${r.net} (minor units)`,
  }));
}

async function fundings(db: Queryable, { now, eventRetentionDays }: InvariantOptions): Promise<Offender[]> {
  const since = new Date(now.getTime() - eventRetentionDays * 86_400_000);
  const rows = await db
    .selectFrom("CardTransaction as t")
    .leftJoin("CardLedgerEntry as e", (join) =>
      join.onRef("e.journalId", "=", "t.id").on(sql<SqlBool>`"e"."account" = 'card:' || "t"."cardId" || ':available'`),
    )
    .leftJoin("ActivityEvent as a", (join) => join.onRef("a.resourceId", "=", "t.id").on("a.type", "=", "card.funded"))
    .select([
      "t.id",
      "t.cardId",
      "t.status",
      "t.amountMinor",
      sql<string | null>`cast(sum(case when "e"."direction" = 'credit' then "e"."amountMinor" else -"e"."amountMinor" end) as text)`.as(
        "credited",
      ),
      (eb) => eb.fn.count<string>("a.id").distinct().as("counted"),
    ])
    .where("t.type", "=", "funding")
    .where("t.createdAt", ">", since)
    .where(intentSettled)
    .groupBy(["t.id", "t.cardId", "t.status", "t.amountMinor"])
    .execute();
  const offenders: Offender[] = [];
  const postedPerCard = new Map<string, number>();
  for (const r of rows) {
    const posted = r.status === "posted";
    if (posted) postedPerCard.set(r.cardId, (postedPerCard.get(r.cardId) ?? 0) + 1);
    if (r.status === "pending") {
      offenders.push({ check: "ledger_disagrees", id: r.id, detail: "funding pending with no open intent: nothing will settle it" });
      continue;
    }
    const expected = posted ? decimalToMinor(r.amountMinor) : 0n;
    const credited = r.credited === null ? 0n : decimalToMinor(r.credited);
    if (credited !== expected) {
      offenders.push({
        check: "ledger_disagrees",
        id: r.id,
        detail: `${r.status} funding credits the card ${credited}, expected ${expected} (minor units)`,
      });
    }
    // The joins repeat the entries per activity row: `credited` is exact while the activity stands at most once (the
    // check below names the funding otherwise); the count of distinct activities is exact.
    const counted = Number(r.counted);
    if (counted !== (posted ? 1 : 0)) {
      offenders.push({
        check: "metric_disagrees",
        id: r.id,
        detail: `counted ${counted} time(s) in cards.funding.volume, expected ${posted ? 1 : 0}`,
      });
    }
  }
  const events = await eventCounts(db, "card.funded", since);
  for (const cardId of new Set([...postedPerCard.keys(), ...events.keys()])) {
    const sent = events.get(cardId)?.get("card.funded") ?? 0;
    const expected = postedPerCard.get(cardId) ?? 0;
    if (sent !== expected) {
      offenders.push({
        check: sent < expected ? "state_without_event" : "event_without_state",
        id: cardId,
        detail: `card.funded: ${sent} event(s), ${expected} posted funding(s)`,
      });
    }
  }
  return offenders;
}
