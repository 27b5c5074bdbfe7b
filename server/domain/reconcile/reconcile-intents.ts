// The reconciler (issue 26): settles every provider intent its request did not finish — a crash between its two
// commits, or a call whose outcome was unknown — once its deadline (RECONCILE_AFTER_SECONDS) has passed. For each:
//   1. claim it (one statement, FOR UPDATE SKIP LOCKED, a lease with a token of this run: safe with N instances);
//   2. ask the provider by the intent's reference, with no transaction open (the family's handler: intent-handlers.ts);
//   3. in one unit of work, with the intent locked and still this run's: the resource's final state, its events, the
//      activity (the handler's `settle`), the intent closed, and the Idempotency-Key's record given the final answer —
//      so a retry of the key replays the outcome.
// A provider that cannot answer is asked again after a backoff (RECONCILE_AFTER_SECONDS × 2^(attempt − 1), at most an
// hour); after RECONCILE_MAX_ATTEMPTS the handler's `giveUp` fails the resource with a reason an operator reads. A run
// that dies mid-way leaves its claims to expire (their lease), and the next run takes them again.
import { randomBytes } from "node:crypto";
import { runBackgroundUnitOfWork } from "../../db/background-unit-of-work.ts";
import type { Queryable } from "../../db/kysely.ts";
import {
  type ClaimedIntent,
  claimDueIntents,
  closeIntent,
  holdIntent,
  IntentTakenOver,
  retryIntentLater,
} from "../../db/provider-intents.ts";
import { answerKeyRecord, type Outcome, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { IntentHandler } from "./intent-handler.ts";

/** Intents claimed per batch. */
export const RECONCILE_BATCH = 20;
/** Attempts (provider asked) before the resource is failed as unconfirmed. */
export const RECONCILE_MAX_ATTEMPTS = 5;
/** A run's lease on what it claimed: longer than a provider lookup may take (PROVIDER_CALL_TIMEOUT_MS) plus settling. */
export const RECONCILE_LEASE_SECONDS = 60;
const MAX_BACKOFF_SECONDS = 3_600;

export interface ReconcileResult {
  claimed: number;
  /** Moved to their final state by what the provider answered. */
  settled: number;
  /** The provider could not answer: asked again after a backoff. */
  retried: number;
  /** Failed as unconfirmed after their last attempt. */
  gaveUp: number;
  /** Intents whose settlement failed (the database), with why: asked again later. */
  errors: string[];
}

export interface ReconcileOptions {
  now: Date;
  reconcileAfterSeconds: number;
  handlers: ReadonlyMap<string, IntentHandler>;
  limit?: number;
}

export function backoffSeconds(reconcileAfterSeconds: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, reconcileAfterSeconds * 2 ** Math.max(0, attempts - 1));
}

/** One batch. Call again while `claimed` equals the limit. */
export async function reconcileDueIntents(db: Queryable, options: ReconcileOptions): Promise<ReconcileResult> {
  const { now, handlers } = options;
  const leaseToken = randomBytes(16).toString("hex");
  const claimed = await claimDueIntents(db, {
    now,
    limit: options.limit ?? RECONCILE_BATCH,
    leaseToken,
    leaseSeconds: RECONCILE_LEASE_SECONDS,
  });
  const result: ReconcileResult = { claimed: claimed.length, settled: 0, retried: 0, gaveUp: 0, errors: [] };
  for (const intent of claimed) {
    const handler = handlers.get(intent.family);
    let found: { ok: true; value: unknown } | { ok: false; error: string };
    try {
      if (!handler) throw new Error(`no reconcile handler for ${intent.family}`);
      found = { ok: true, value: await handler.lookup(db, intent) };
    } catch (error) {
      found = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const retryLater = (error: string) =>
      retryIntentLater(db, intent, new Date(now.getTime() + backoffSeconds(options.reconcileAfterSeconds, intent.attempts) * 1000), error);
    try {
      if (found.ok && handler) {
        const value = found.value;
        if (await settle(db, now, intent, (uow) => handler.settle(uow, intent, value))) result.settled++;
      } else if (!found.ok && handler && intent.attempts >= RECONCILE_MAX_ATTEMPTS) {
        const lastError = found.error;
        if (await settle(db, now, intent, (uow) => handler.giveUp(uow, intent, lastError))) result.gaveUp++;
      } else if (!found.ok) {
        await retryLater(found.error);
        result.retried++;
      }
    } catch (error) {
      // Settling failed (the database): the next intents still get their turn; this one is asked again after its backoff
      // (or, when even that cannot be written, once this run's lease ends).
      result.errors.push(`${intent.id}: ${error instanceof Error ? error.message : String(error)}`);
      await retryLater(`settling failed: ${error instanceof Error ? error.message : String(error)}`).catch(() => {});
    }
  }
  return result;
}

/** The settling unit of work; false when the intent was no longer this run's (closed or taken over meanwhile). */
async function settle(db: Queryable, now: Date, intent: ClaimedIntent, finish: (uow: UnitOfWork) => Promise<Outcome | undefined>) {
  try {
    await runBackgroundUnitOfWork(db, now, async (uow) => {
      await holdIntent(uow.tx, intent);
      const answer = await finish(uow);
      uow.defer(closeIntent(intent));
      if (answer && intent.idempotencyRecordId) uow.defer(answerKeyRecord(intent.idempotencyRecordId, answer));
    });
    return true;
  } catch (error) {
    if (error instanceof IntentTakenOver) return false;
    throw error;
  }
}
