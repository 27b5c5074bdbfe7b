// The one unit of work of every write request. The idempotency reservation, the business rows, the audit rows
// (activity, compliance decisions) and the stored response commit in one transaction, so the effect and its stored
// answer exist together or not at all.
//
//   1. One plain read fetches the key's record (no transaction yet: server/db/lazy-transaction.ts). A completed record
//      is replayed; another body under the same key is 422; a live in-progress claim (a two-transaction write between
//      its transactions) is 409 IDEMPOTENCY_IN_PROGRESS at once.
//   2. The work runs on the transaction. Rows that nothing reads back (activity events, compliance decisions, the
//      idempotency record itself) are deferred and flushed at the end in one statement (data-modifying CTEs).
//   3. The closing statement writes the key's record with the deferred rows, guarded: when another request wrote the
//      record first (a concurrent duplicate), the whole statement aborts and the run starts again from 1, which then
//      replays the winner's answer (or answers 409 while the winner is between its transactions). Then commit. A
//      business error (a ServiceError that is not transient) rolls the work back and is stored as the key's answer
//      together with the deferred rows marked `keepOnError` (a compliance block stays on record).
//
// A write whose work sends no statement of its own (a v1 payment: its rows are all deferred) is therefore two round
// trips with a key (read, closing statement) and one without, with no BEGIN or COMMIT: a single statement is atomic.
//
// Checked at close (`keyCheckedAtClose`, for a work that writes nothing before its closing statement and calls no one
// before it: a v1 payment, the first transaction of a bank transfer): step 1 is skipped, since the closing statement's
// guarded insert of the key's record already fails when any record stands under the key. A fresh key — what an SDK
// retry loop sends nearly every time — then costs no round trip of its own: a v1 payment is one statement, as without a
// key. A record that stands (a replay, a reuse, a claim in progress, an expired record) fails the guard: nothing was
// written, and the run starts again from 1, which answers as above. A work that throws starts again from 1 too, so an
// error is only ever answered once the key was read. A key whose check at close failed on this instance before (a
// replay, a retry after a 503: keys-to-read-first.ts) is read first from then on: its next replay costs the read alone,
// not another wasted run of the work.
//
// Two transactions, never three, where a write calls a provider (its work returns `afterProviderCall(...)`): the first
// commits the intent and an in-progress claim on the key, the provider is called with no transaction open, and a second
// transaction records the result with the answer (server/db/unit-of-work/provider-step.ts). A claim its request could
// not settle because the database stopped answering is released once it answers again (stranded-claims.ts).
//
// Below, top to bottom: runUnitOfWork (the retries around the first transaction, then the provider step if any) and
// runFirst (steps 1–3 in one transaction). The key's record, its read and its stored answer: idempotency-claim.ts; the
// unit and its closing statement: unit.ts.

import { classifyFailure } from "../../errors/classify-failure.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { toServiceError } from "../../errors/to-service-error.ts";
import { newId, randomHex } from "../../lib/ids.ts";
import { inTransaction } from "../direct-statements.ts";
import type { HeldIntent } from "../provider-intents.ts";
import {
  AS_SENT,
  commitFinal,
  decide,
  insertRecord,
  isTransient,
  LostKeyRace,
  lostTheKey,
  recordValues,
  serialise,
  storeError,
} from "./idempotency-claim.ts";
import { finishAfterProvider, type ProviderStep, type StepStarted, startIntent, strandAfterFirst } from "./provider-step.ts";
import { releaseOrKeep } from "./stranded-claims.ts";
import type { Outcome, SentResponse, StrandedClaim, UnitOfWorkOptions } from "./types.ts";
import { flush, UnitOfWork } from "./unit.ts";

/** A work run with its key checked at close failed: it starts again with the key read first, which decides its answer. */
class CheckKeyFirst extends Error {}

/** How often a transaction that met a serialization failure or deadlock is run again before the request answers 503. */
export const CONFLICT_ATTEMPTS = 3;

/** 10–40 ms, then 20–80 ms, …: full jitter, so colliding requests do not collide again in step. */
const conflictBackoff = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, (10 + Math.random() * 30) * 2 ** attempt));

/**
 * Runs `work` as the request's unit of work and returns the answer to send (fresh or replayed). Only final outcomes are
 * stored as the key's answer: 2xx and business errors (4xx), and a 500 from a defect with nothing else (its work rolled
 * back). Infrastructure failures (server/errors/classify-failure.ts: unreachable, timed out, shutting down → 503) and
 * 429s are never stored: the transaction rolls back, the key is free, and the same request executes once the fault heals.
 * A serialization failure or deadlock in the first transaction runs the transaction again, at most CONFLICT_ATTEMPTS
 * times with jitter, then answers 503.
 */
export async function runUnitOfWork(
  options: UnitOfWorkOptions,
  work: (uow: UnitOfWork) => Promise<Outcome | ProviderStep<unknown>>,
): Promise<SentResponse> {
  let lostRaces = 0;
  const { claim, keysToReadFirst } = options;
  let readKeyFirst = !options.keyCheckedAtClose || !claim || (keysToReadFirst?.has(claim) ?? false);
  for (let attempt = 0; ; attempt++) {
    let first: FirstTransaction;
    try {
      first = await runFirst(options, work, readKeyFirst);
    } catch (error) {
      // The check at close did not pay off (the key stood, the work failed, or the statement did): read this key first
      // from now on, so that its replays cost the read alone.
      if (!readKeyFirst && claim) keysToReadFirst?.add(claim);
      if (!readKeyFirst && (error instanceof LostKeyRace || error instanceof CheckKeyFirst)) {
        // The key was met before (or the work failed): run again the usual way; this was not a lost race.
        readKeyFirst = true;
        attempt--;
        continue;
      }
      if (error instanceof LostKeyRace && lostRaces++ < 2) continue;
      if (attempt + 1 < CONFLICT_ATTEMPTS && isRetryableConflict(error)) {
        await conflictBackoff(attempt);
        continue;
      }
      throw error;
    }
    // The provider call and the second transaction run once: the provider was (or is being) asked.
    if (!("step" in first)) return first.response;
    options.faults?.afterIntent?.();
    return finishAfterProvider(options, first.step, first, first.now);
  }
}

/** A conflict seen directly or through a 500 that wraps it (a card write's guard) — not one a domain already answered
 * with its own code (e.g. 409 CARD_LEDGER_CONFLICT after its own retries: that answer is final and stored). */
function isRetryableConflict(error: unknown): boolean {
  return classifyFailure(error) === "conflict" && toServiceError(error).error.status === 503;
}
type FirstTransaction = { response: SentResponse } | (StepStarted & { now: Date });

async function runFirst(
  options: UnitOfWorkOptions,
  work: (uow: UnitOfWork) => Promise<Outcome | ProviderStep<unknown>>,
  readKeyFirst: boolean,
): Promise<FirstTransaction> {
  const { db, claim } = options;
  const now = options.now?.() ?? new Date();
  let businessError: ServiceError | undefined;
  let errorUow: UnitOfWork | undefined;
  let defect = false;
  let first: { response: SentResponse } | StepStarted | undefined;
  // A stranded claim this run took over (its release rolls back with this transaction), and the claim this run wrote
  // once its closing statement was sent (whether it committed is unknown until the commit answers).
  let tookOver: StrandedClaim | undefined;
  let written: { claim: StrandedClaim; step: ProviderStep<unknown>; intent?: HeldIntent } | undefined;
  try {
    first = await inTransaction(db, async (tx) => {
      const uow = new UnitOfWork(tx, now);
      if (claim && readKeyFirst) {
        const decided = await decide(tx, claim, now, options.storedBody ?? AS_SENT, options.claimReleases).catch((error) => {
          if (error instanceof ServiceError) throw error;
          throw new ServiceError("IDEMPOTENCY_UNAVAILABLE", "The idempotency store is unavailable; the request was not executed", {
            retryAfterSeconds: 5,
            cause: error,
          });
        });
        if (decided.kind === "replay") return { response: decided.response };
        tookOver = decided.tookOver;
      }
      let result: Outcome | ProviderStep<unknown>;
      try {
        result = await work(uow);
      } catch (error) {
        // Unread key: whether this error is the answer depends on the key's record, so read it first and run again.
        if (claim && !readKeyFirst) throw new CheckKeyFirst("the work failed before its key was read", { cause: error });
        const { error: serviceError, unexpected } = toServiceError(error);
        // Stored as the key's answer when there is a key; the rows kept on error (a compliance block's decisions) are
        // written either way. A 500 (a defect) is stored alone: its work rolls back and nothing else of it is written.
        if (!isTransient(serviceError) && !(error instanceof LostKeyRace)) {
          businessError = serviceError;
          errorUow = uow;
          defect = unexpected || serviceError.status >= 500;
        }
        throw error;
      }
      if ("kind" in result && result.kind === "provider-step") {
        // First of two transactions: the intent and an in-progress claim on the key, with a lease.
        const lockToken = randomHex(16);
        const recordId = claim ? newId("idem") : "";
        const intent = result.intent
          ? startIntent(result.intent, options, { recordId: claim ? recordId : null, lockToken, now })
          : undefined;
        if (intent) uow.defer(intent.write);
        const writes = uow.takeDeferred();
        const guard = claim
          ? insertRecord({
              ...recordValues(claim, now, options.ttlHours),
              id: recordId,
              state: "in_progress",
              lockToken,
              lockedUntil: new Date(now.getTime() + options.lockSeconds * 1000),
            })
          : undefined;
        if (claim) written = { claim: { recordId, lockToken }, step: result, intent: intent?.held };
        await flush(tx, writes, { guard, final: true }).catch(lostTheKey);
        return { step: result, recordId, lockToken, intent: intent?.held };
      }
      const response = serialise(result as Outcome);
      await commitFinal(uow, options, response);
      return { response };
    });
  } catch (error) {
    strandAfterFirst(options, error, written);
    if (tookOver) await releaseOrKeep(options, tookOver, now);
    if (businessError && errorUow) await storeError(options, errorUow, businessError, !defect);
    throw error;
  }
  if ("response" in first) return first;
  return { ...first, now };
}
