// Two transactions, never three, where a write calls a provider: the work returns `afterProviderCall(...)`; the first
// transaction commits the intent and an in-progress claim on the key (a lease of IDEMPOTENCY_LOCK_SECONDS), the
// provider is called with no transaction open and the idempotency key forwarded, and a second transaction records the
// result (or compensates the intent when the call failed) with the response. A transaction never stays open across a
// provider call: a slow provider must not hold a pooled connection or row locks. The operations that do this (each
// says why where it returns its step):
//   - bank transfers: create, status lookup of a non-final transfer, cancel; corridor simulate (the route check);
//   - custody: wallet activation, transfer submit and advance, status of a submitted transfer, balance of an active wallet;
//   - cards: every write (the card issuer confirms programmes, cards, funding, status and limit changes, authorizations);
//   - providers/invoke when it executes; treasury status, stress test and burn (chain reader, reserve source);
//   - contracts compile and simulate: not a provider, but seconds of solc / EVM CPU that no transaction may wait on.
// Everything else is one transaction. An error after the provider call settles the claim in one more statement
// (the error as the key's answer, or the claim released when transient), never a third transaction of business work.
//
// A step that declares an `intent` (issue 26; server/db/provider-intents.ts) is reconcilable: the first transaction
// also writes the open intent, the second deletes it. When the call's outcome is unknown (it timed out) and the step
// has `onUnknown`, the second transaction records that state instead of compensating, answers it (202), and leaves
// the intent to the reconciler (server/domain/reconcile/), which later writes the final answer to the key's record.
// A crash between the transactions leaves the intent and the in-progress claim: a retry is 409 while the intent is
// open (even past the claim's lease), and the reconciler settles both.
//
// What becomes of a claim the request could not settle (the database stopped answering): stranded-claims.ts.
import type { Kysely } from "kysely";
import { ServiceError } from "../../errors/service-error.ts";
import { toServiceError } from "../../errors/to-service-error.ts";
import type { ClosingWrite } from "../closing-statement.ts";
import { inTransaction } from "../direct-statements.ts";
import type { DB } from "../kysely.ts";
import {
  closeIntent,
  DEFAULT_RECONCILE_AFTER_SECONDS,
  type HeldIntent,
  holdIntent,
  isUnknownOutcome,
  leaveIntentToReconciler,
  openIntent,
  type ProviderIntentSpec,
} from "../provider-intents.ts";
import {
  AS_SENT,
  completeClaim,
  completeClaimStatement,
  errorResponse,
  isTransient,
  LostKeyRace,
  responseColumns,
  serialise,
} from "./idempotency-claim.ts";
import { releaseClaim, releaseOrKeep } from "./stranded-claims.ts";
import type { Outcome, SentResponse, StrandedClaim, UnitOfWorkOptions } from "./types.ts";
import { flush, GuardFailed, UnitOfWork } from "./unit.ts";

export interface ProviderStep<R, O extends Outcome = Outcome> {
  readonly kind: "provider-step";
  /** The provider call, outside any transaction. Forward the idempotency key of the intent it acts on. `db` is the
   * database itself (never a transaction), for what the call reads beside the provider between the two transactions
   * (the sandbox chain's log, a reserve source's connection). */
  call(db: Kysely<DB>): Promise<R>;
  /** Second transaction: records the result; returns the answer. */
  onResult(uow: UnitOfWork, result: R): Promise<O>;
  /** Second transaction when the call failed: compensate the intent (the error is then answered and stored). */
  onFailure?(uow: UnitOfWork, error: unknown): Promise<void>;
  /** Makes the step reconcilable: the open intent is recorded with the first transaction (see the header). */
  intent?: ProviderIntentSpec;
  /** Second transaction when the call's outcome is unknown (timed out), for a step with an `intent`: record that state
   * and answer it; it is the key's answer until the reconciler writes the final one. Without it, onFailure runs. */
  onUnknown?(uow: UnitOfWork, error: unknown): Promise<O>;
}

/** A provider step whose result type only its own callbacks know (what a write's work may return). */
// biome-ignore lint/suspicious/noExplicitAny: the result type is private to the step; the unit of work only passes it on
export type PendingProviderStep<O extends Outcome = Outcome> = ProviderStep<any, O>;

/** Ends the first transaction with the intent committed; `step` runs the provider call and the second transaction. */
export function afterProviderCall<R, O extends Outcome = Outcome>(step: Omit<ProviderStep<R, O>, "kind">): ProviderStep<R, O> {
  return { kind: "provider-step", ...step };
}

/** How the first transaction of a provider step ended: its claim, and its open intent when the step declared one. */
export type StepStarted = { step: ProviderStep<unknown>; recordId: string; lockToken: string; intent?: HeldIntent };

/** The open intent of a reconcilable step; the request holds it as long as the key's claim. */
export function startIntent(
  spec: ProviderIntentSpec,
  options: UnitOfWorkOptions,
  at: { recordId: string | null; lockToken: string; now: Date },
) {
  return openIntent(spec, {
    idempotencyRecordId: at.recordId,
    leaseToken: at.lockToken,
    now: at.now,
    leaseSeconds: options.lockSeconds,
    reconcileAfterSeconds: options.reconcileAfterSeconds ?? DEFAULT_RECONCILE_AFTER_SECONDS,
  });
}

/**
 * The first transaction failed. If its closing statement (the intent and the claim) was sent and the failure was not
 * the guard's (a lost race writes nothing), its commit may have landed — a cut COMMIT, or a final statement whose answer
 * was lost — while the provider was never called: the claim is released and the intent undone once the database
 * answers, so a retry executes then rather than after the lease.
 */
export function strandAfterFirst(
  options: UnitOfWorkOptions,
  error: unknown,
  written: { claim: StrandedClaim; step: ProviderStep<unknown>; intent?: HeldIntent } | undefined,
): void {
  if (!written || !options.claimReleases || error instanceof LostKeyRace) return;
  const { claim, step, intent } = written;
  options.claimReleases.add({
    ...claim,
    compensate: async (uow) => {
      await step.onFailure?.(uow, error);
      // Nothing reached the provider: the open intent goes with the attempt it recorded.
      if (intent) uow.defer(closeIntent(intent));
    },
  });
}

const lostLease = () =>
  new ServiceError("IDEMPOTENCY_IN_PROGRESS", "Another request with this Idempotency-Key took over; retry to get its result", {
    retryAfterSeconds: 1,
  });

/** The provider call (no transaction open), then the second transaction: the result or the compensation, with the
 * key's answer (or, for a transient failure, the claim released so a retry executes). Errors are rethrown only after
 * that transaction committed, so the answer and the compensation stay. */
export async function finishAfterProvider(
  options: UnitOfWorkOptions,
  step: ProviderStep<unknown>,
  started: Pick<StepStarted, "recordId" | "lockToken" | "intent">,
  now: Date,
): Promise<SentResponse> {
  const { recordId, lockToken, intent } = started;
  const codec = options.storedBody ?? AS_SENT;
  let result: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    result = { ok: true, value: await step.call(options.db) };
  } catch (error) {
    result = { ok: false, error };
  }
  options.faults?.beforeResult?.();
  const claim = options.claim ? { recordId, lockToken } : undefined;
  let settled: { response: SentResponse; rethrow?: undefined } | { response?: undefined; rethrow: unknown };
  try {
    settled = await inTransaction(options.db, async (tx) => {
      const uow = new UnitOfWork(tx, now);
      // Whether the reconciler took the intent over (this request outlived its lease): with a key, the claim's guard in
      // the closing statement tells (the reconciler answers the key first, or finds the intent closed), at no statement
      // of its own; without one, the intent is locked and its token checked first.
      if (intent && !claim) await holdIntent(tx, intent);
      /** The answer, with what becomes of the intent, in the closing statement with the key's completed record. */
      const answer = async (outcome: Outcome, intentWrite: ClosingWrite | undefined) => {
        const response = serialise(outcome);
        if (intentWrite) uow.defer(intentWrite);
        const guard = claim ? completeClaim(claim, response, codec) : undefined;
        await flush(tx, uow.takeDeferred(), { guard, final: true }).catch((error) => {
          throw error instanceof GuardFailed ? lostLease() : error;
        });
        return { response };
      };
      if (result.ok) return answer(await step.onResult(uow, result.value), intent && closeIntent(intent));
      if (intent && step.onUnknown && isUnknownOutcome(result.error)) {
        // The provider may have executed it: the step records that state and answers it; the reconciler settles it.
        return answer(await step.onUnknown(uow, result.error), leaveIntentToReconciler(intent, now, String(result.error)));
      }
      await step.onFailure?.(uow, result.error);
      if (intent) uow.defer(closeIntent(intent));
      const { error } = toServiceError(result.error);
      // A transient failure is not an answer: the claim goes, so a retry executes. The compensation commits whether or
      // not the claim is still this request's (no guard): this request's intent is undone either way.
      if (claim) {
        if (isTransient(error)) uow.deferLater((q) => releaseClaim(q, claim));
        else uow.defer(completeClaim(claim, errorResponse(options, error), codec));
      }
      await flush(tx, uow.takeDeferred(), { final: true });
      return { rethrow: result.error };
    });
  } catch (error) {
    // onResult (or the closing statement) failed: nothing of the second transaction committed. The claim is settled at
    // once — the error as the key's answer, or released when transient — so the key is not held until its lease ends;
    // when the database does not answer, it is released as soon as it does (server/db/claim-releases.ts). What the
    // second transaction would have compensated (the provider call failed or refused) goes with the release.
    // A reconcilable step's claim is left to the reconciler once its provider may have been called: it writes the key's
    // answer when it has settled the open intent (released here, a retry would execute the write a second time).
    if (intent) throw error;
    if (claim) {
      const { error: serviceError } = toServiceError(error);
      const outcome = result;
      const stranded: StrandedClaim = outcome.ok ? claim : { ...claim, compensate: async (uow) => step.onFailure?.(uow, outcome.error) };
      if (isTransient(serviceError)) await releaseOrKeep(options, stranded, now);
      else {
        const answer = { ...responseColumns(errorResponse(options, serviceError), codec), ...claim };
        await completeClaimStatement.execute(options.db, answer).catch(() => options.claimReleases?.add(stranded));
      }
    }
    throw error;
  }
  if (settled.rethrow !== undefined) throw settled.rethrow;
  return settled.response as SentResponse;
}
