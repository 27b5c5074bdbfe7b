// Open provider intents (issue 26): the rows that let a two-transaction write (server/db/unit-of-work/provider-step.ts,
// `afterProviderCall`) be finished by someone else when its request cannot finish it — a crash between the two
// commits, a lost database, or a provider call whose outcome is unknown (it timed out: the provider may have executed
// it). The first transaction writes the intent with a deadline; the second deletes it with the result. What is left
// past the deadline is the reconciler's (server/domain/reconcile/reconcile-intents.ts).
//
// Who may act on an intent is decided by its lease: the request holds it (with the key's lock token) until its claim's
// lease ends; a reconciler run takes it over only after that, with a token of its own. The reconciler locks the row and
// checks its token in the transaction that settles it; the request's second transaction is guarded by its key's claim
// (completed only while still in progress under its token: the reconciler completes it first), or, without a key, locks
// the intent and checks its token the same way. So a request that comes back late and a reconciler never both settle
// one intent.
import { ServiceError } from "../errors/service-error.ts";
import { newId } from "../lib/ids.ts";
import { IoTimeoutError } from "../lib/with-io-timeout.ts";
import { builtWrite, type ClosingWrite, insertWrite, templateWrite } from "./closing-statement.ts";
import type { Queryable } from "./kysely.ts";
import { precompiled } from "./precompiled-query.ts";

/** Default of RECONCILE_AFTER_SECONDS: how long after its intent a write is left to its request. */
export const DEFAULT_RECONCILE_AFTER_SECONDS = 30;

/** What a provider step declares to be reconcilable: the family's handler settles it by `reference`. */
export interface ProviderIntentSpec {
  /** e.g. `bank_transfer.create` (server/domain/reconcile/intent-handlers.ts). */
  family: string;
  resourceId: string;
  /** The provider's idempotency key for the call. */
  reference: string;
  organizationId: string;
  environment: string;
}

/** An intent as the request that wrote it holds it. */
export interface HeldIntent {
  id: string;
  leaseToken: string;
}

/** The intent's row, for the first transaction's closing statement. The request holds its lease as long as the key's
 * claim (`leaseSeconds`); the reconciler may look at it from `reconcileAfterSeconds` on. */
export function openIntent(
  spec: ProviderIntentSpec,
  hold: { idempotencyRecordId: string | null; leaseToken: string; now: Date; leaseSeconds: number; reconcileAfterSeconds: number },
): { held: HeldIntent; write: ClosingWrite } {
  const id = newId("intent");
  const { now } = hold;
  const write = insertWrite("ProviderIntent", {
    id,
    ...spec,
    idempotencyRecordId: hold.idempotencyRecordId,
    dueAt: new Date(now.getTime() + hold.reconcileAfterSeconds * 1000),
    leaseToken: hold.leaseToken,
    leaseUntil: new Date(now.getTime() + hold.leaseSeconds * 1000),
    createdAt: now,
  });
  return { held: { id, leaseToken: hold.leaseToken }, write };
}

/** The request's second transaction found its intent taken over by the reconciler, which answers the key: the claim
 * stays for it (the retry is answered 409 until the reconciler wrote the final answer, then replays it). */
export class IntentTakenOver extends ServiceError {
  constructor() {
    super("IDEMPOTENCY_IN_PROGRESS", "The provider's outcome is being confirmed; retry to get the result", { retryAfterSeconds: 1 });
  }
}

/** Locks the intent for this transaction if `held` still holds it; otherwise IntentTakenOver. */
export async function holdIntent(tx: Queryable, held: HeldIntent): Promise<void> {
  const row = await tx
    .selectFrom("ProviderIntent")
    .select("id")
    .where("id", "=", held.id)
    .where("leaseToken", "=", held.leaseToken)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new IntentTakenOver();
}

/** Precompiled: every reconcilable write's second transaction closes its intent. */
const deleteIntent = precompiled((db, p: { id: string }) => db.deleteFrom("ProviderIntent").where("id", "=", p.id));

/** The intent settled (with the result, or the compensation of a refused call). */
export function closeIntent(held: Pick<HeldIntent, "id">): ClosingWrite {
  return templateWrite(deleteIntent, { id: held.id });
}

/** The outcome is unknown: the request lets go of the intent, which the reconciler takes at its deadline. */
export function leaveIntentToReconciler(held: HeldIntent, now: Date, reason: string): ClosingWrite {
  return builtWrite((db) =>
    db
      .updateTable("ProviderIntent")
      .set({ leaseUntil: now, lastError: reason.slice(0, 500) })
      .where("id", "=", held.id),
  );
}

/** Whether an open intent waits on this Idempotency-Key record: its claim must stand even when its lease ran out
 * (the reconciler writes its answer), so a retry never executes the write a second time. */
export async function keyHeldByOpenIntent(db: Queryable, idempotencyRecordId: string): Promise<boolean> {
  const row = await db
    .selectFrom("ProviderIntent")
    .select("id")
    .where("idempotencyRecordId", "=", idempotencyRecordId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Precompiled: every status refresh of a live bank transfer asks it. */
const openIntentOf = precompiled((db, p: { family: string; resourceId: string }) =>
  db.selectFrom("ProviderIntent").select("id").where("resourceId", "=", p.resourceId).where("family", "=", p.family).limit(1),
);

/** Whether a write of `family` on `resourceId` is open (in flight, or its outcome being confirmed): a reader that would
 * move the resource blind (a status refresh while a cancellation is unconfirmed) leaves it alone. The table holds only
 * open intents, so it stays small. */
export async function hasOpenIntent(db: Queryable, family: string, resourceId: string): Promise<boolean> {
  return (await openIntentOf.execute(db, { family, resourceId })).length > 0;
}

/** A provider call whose outcome is unknown: it timed out (the provider may have executed it). A refusal, or a
 * provider that could not be reached at all, is known: nothing happened there. */
export function isUnknownOutcome(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof IoTimeoutError) return true;
  }
  return false;
}

/** An intent as the reconciler claimed it. */
export interface ClaimedIntent extends ProviderIntentSpec, HeldIntent {
  idempotencyRecordId: string | null;
  /** This claim included. */
  attempts: number;
  lastError: string | null;
  createdAt: Date;
}

/** Claims up to `limit` intents past their deadline whose holder's lease ended, for `leaseSeconds`, with a new token and
 * one more attempt — one statement, FOR UPDATE SKIP LOCKED, so reconcilers on N instances never claim the same one. */
export async function claimDueIntents(
  db: Queryable,
  options: { now: Date; limit: number; leaseToken: string; leaseSeconds: number },
): Promise<ClaimedIntent[]> {
  const { now, limit, leaseToken } = options;
  return (
    db
      .updateTable("ProviderIntent")
      .set((eb) => ({ leaseToken, leaseUntil: new Date(now.getTime() + options.leaseSeconds * 1000), attempts: eb("attempts", "+", 1) }))
      .where("id", "in", (eb) =>
        eb
          .selectFrom("ProviderIntent")
          .select("id")
          .where("dueAt", "<=", now)
          .where("leaseUntil", "<=", now)
          .orderBy("dueAt")
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      // Re-checked on the locked row: a reconciler that claimed it first leaves nothing to claim.
      .where("leaseUntil", "<=", now)
      .returning([
        "id",
        "family",
        "resourceId",
        "reference",
        "organizationId",
        "environment",
        "idempotencyRecordId",
        "attempts",
        "leaseToken",
        "lastError",
        "createdAt",
      ])
      .execute()
  );
}

/** The claimed intent waits again until `dueAt` (the provider could not answer: backoff). */
export async function retryIntentLater(db: Queryable, held: HeldIntent, dueAt: Date, lastError: string): Promise<void> {
  await db
    .updateTable("ProviderIntent")
    .set({ dueAt, leaseUntil: dueAt, lastError: lastError.slice(0, 500) })
    .where("id", "=", held.id)
    .where("leaseToken", "=", held.leaseToken)
    .execute();
}

/** How many intents are open, and how many of them are past their deadline (the reconciler's backlog). */
export async function intentBacklog(db: Queryable, now: Date): Promise<{ open: number; due: number }> {
  const row = await db
    .selectFrom("ProviderIntent")
    .select((eb) => [eb.fn.countAll<string>().as("open"), eb.fn.count<string>(eb.case().when("dueAt", "<=", now).then(1).end()).as("due")])
    .executeTakeFirstOrThrow();
  return { open: Number(row.open), due: Number(row.due) };
}
