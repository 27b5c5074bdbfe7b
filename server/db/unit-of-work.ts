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
// Checked at close (`keyCheckedAtClose`, for such a work only): step 1 is skipped, since the closing statement's guarded
// insert of the key's record already fails when any record stands under the key. A fresh key — what an SDK retry loop
// sends nearly every time — is then one round trip, as without a key. A record that stands (a replay, a reuse, a claim
// in progress, an expired record) fails the guard: nothing was written, and the run starts again from 1, which answers
// as above. A work that throws starts again from 1 too, so an error is only ever answered once the key was read.
//
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
// A claim is released when its request ends, not when its lease does. When the request answers 503 because the database
// stopped answering while its claim may stand — the first transaction's commit cut (the claim and the intent may have
// committed, the provider was never called), the second transaction failed, or the release itself failed — the claim
// (and the intent of an attempt whose provider call never ran or failed) is kept in this instance's list
// (server/db/claim-releases.ts) and released as soon as the database answers again; a retry that meets it here takes
// it over at once. Only a claim whose process died waits out its lease — and the claim of a reconcilable step whose
// provider may have been called: the reconciler answers that one (a release would let a retry execute it again).

import { randomBytes } from "node:crypto";
import type { Insertable, Kysely } from "kysely";
import { classifyFailure } from "../errors/classify-failure.ts";
import { ServiceError } from "../errors/service-error.ts";
import { toServiceError } from "../errors/to-service-error.ts";
import { newId } from "../lib/ids.ts";
import {
  builtWrite,
  type ClosingWrite,
  closingStatement,
  type DeferredWrite,
  GUARD_FAILED,
  insertWrite,
  templateWrite,
} from "./closing-statement.ts";
import type { DB, Tx } from "./kysely.ts";
import { ownedByOrganization } from "./owned-by.ts";
import { type PrecompiledQuery, precompiled } from "./precompiled-query.ts";
import {
  closeIntent,
  DEFAULT_RECONCILE_AFTER_SECONDS,
  type HeldIntent,
  holdIntent,
  isUnknownOutcome,
  keyHeldByOpenIntent,
  leaveIntentToReconciler,
  openIntent,
  type ProviderIntentSpec,
} from "./provider-intents.ts";

/** The request's Idempotency-Key, already parsed and fingerprinted (server/middleware/idempotency.ts). */
export interface IdempotencyClaim {
  organizationId: string;
  apiKeyId: string;
  method: string;
  path: string;
  key: string;
  fingerprint: string;
}

/** What the request answers. `body` is serialised once: the same bytes are sent and stored. Typed per operation by
 * `OperationOutcome<"operationId">` (server/spec/operation-types.ts) where a route or domain function decides it. */
export interface Outcome {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** JSON unless said (an error answered by the reconciler is a problem+json body). */
  contentType?: string;
}

/** The answer as sent: fresh, or replayed from the key's record. */
export interface SentResponse {
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
  replayed: boolean;
}

/** A rendered error, in the surface's shape (server/middleware/error-handler.ts renders it). */
export type ErrorRenderer = (error: ServiceError) => { contentType: string; body: unknown };

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

type TableName = keyof DB & string;
interface Deferred {
  write: ClosingWrite;
  keepOnError: boolean;
}

/** The open transaction of one request plus the rows it writes at commit. */
export class UnitOfWork {
  private deferred: Deferred[] = [];

  constructor(
    /** The transaction: run reads and the writes whose results you need on it. */
    readonly tx: Tx,
    /** One clock for the whole request. */
    readonly now: Date,
  ) {}

  /** Inserts `row` at commit, in the closing statement (for rows nothing in this request reads back). */
  insertLater<T extends TableName>(table: T, row: Insertable<DB[T]> | Insertable<DB[T]>[], options: { keepOnError?: boolean } = {}): void {
    this.defer(insertWrite(table, row), options);
  }

  /** Runs a write at commit, in the closing statement. Use for writes whose result this request does not read. */
  deferLater(write: DeferredWrite, options: { keepOnError?: boolean } = {}): void {
    this.defer(builtWrite(write), options);
  }

  /** Runs a precompiled write (server/db/precompiled-query.ts) with these values at commit: the cheapest kind for a
   * write every request of a hot path makes (it is not built by Kysely per request). */
  deferPrecompiled<P extends Record<string, unknown>>(
    template: PrecompiledQuery<P, unknown>,
    values: P,
    options: { keepOnError?: boolean } = {},
  ): void {
    this.defer(templateWrite(template, values), options);
  }

  /** @internal a write of the closing statement */
  defer(write: ClosingWrite, options: { keepOnError?: boolean } = {}): void {
    this.deferred.push({ write, keepOnError: options.keepOnError ?? false });
  }

  /** The same unit of work on another clock: what the view defers goes to this one's closing statement. For a job
   * that dates what it records by when a step finished, not when the job began (server/scheduler/advance-run.ts). */
  at(now: Date): UnitOfWork {
    const view = new UnitOfWork(this.tx, now);
    view.deferred = this.deferred;
    return view;
  }

  /** @internal the deferred writes, taken once (emptied in place: a view made by `at` shares the list) */
  takeDeferred(onlyKeptOnError = false): ClosingWrite[] {
    return this.deferred
      .splice(0)
      .filter((d) => !onlyKeptOnError || d.keepOnError)
      .map((d) => d.write);
  }
}

/** How a key's answer rests in its record: as sent, or sealed where the answer carries a secret (a webhook signing
 * secret): the replay opens it, so a retry gets the same answer while no plaintext secret is stored. */
export interface StoredBodyCodec {
  seal(body: string): string;
  open(stored: string): string;
}

const AS_SENT: StoredBodyCodec = { seal: (body) => body, open: (stored) => stored };

export interface UnitOfWorkOptions {
  db: Kysely<DB>;
  claim?: IdempotencyClaim;
  /** Default: stored as sent. */
  storedBody?: StoredBodyCodec;
  ttlHours: number;
  lockSeconds: number;
  renderError: ErrorRenderer;
  now?: () => Date;
  /**
   * Skip the key's first read and let the closing statement's guarded insert decide (see "Checked at close" above):
   * for a work that reads nothing and calls no one (its rows are all deferred). A key met before is then one wasted
   * run of the work, after which the run starts again with the read; an error of the work does the same, so only a
   * fresh success is answered without the read.
   */
  keyCheckedAtClose?: boolean;
  /** RECONCILE_AFTER_SECONDS: the deadline of a reconcilable step's intent (default 30). */
  reconcileAfterSeconds?: number;
  /** Test-only fault points between the transactions of a provider step (FAULT_INJECT; server/http/fault-injection.ts). */
  faults?: StepFaults;
  /** This instance's claims to release once the database answers again (server/db/claim-releases.ts); without it a
   * claim the request could not release waits out its lease. */
  claimReleases?: ClaimReleaser;
}

/** Called between a provider step's transactions (a test SIGKILLs the process there). */
export interface StepFaults {
  /** The first transaction (the intent) committed; the provider was not called yet. */
  afterIntent?(): void;
  /** The provider answered; the second transaction has not run. */
  beforeResult?(): void;
}

/** An in-progress claim its request could not settle (the database stopped answering), and what goes with it. */
export interface StrandedClaim {
  recordId: string;
  lockToken: string;
  /** Undoes what the attempt recorded, in the transaction that releases the claim and only if the claim was still
   * there: its intent, when the provider was never called (or refused) — nothing outside knows it. */
  compensate?: (uow: UnitOfWork) => Promise<void>;
}

/** Where a request leaves a claim it could not release (server/db/claim-releases.ts keeps and retries them). */
export interface ClaimReleaser {
  add(claim: StrandedClaim): void;
  /** The claim of this lock token, if this instance still has to release it (removed from its list). */
  takeOver(lockToken: string | null): StrandedClaim | undefined;
}

/**
 * Releases a claim if it is still the one its request wrote (id and lock token) and compensates its attempt with it, in
 * one transaction; a claim already gone (never committed, completed, or taken over after its lease) is left alone.
 * Returns whether it released the claim.
 */
export async function releaseStrandedClaim(db: Kysely<DB>, claim: StrandedClaim, now: Date): Promise<boolean> {
  const { compensate } = claim;
  if (!compensate) return (await releaseClaim(db, claim).execute()).length > 0;
  const releaseAndCompensate = async (tx: Tx) => {
    const released = await releaseClaim(tx, claim).executeTakeFirst();
    if (!released) return false;
    const uow = new UnitOfWork(tx, now);
    await compensate(uow);
    await flushDeferred(uow);
    return true;
  };
  return db.isTransaction ? releaseAndCompensate(db as Tx) : db.transaction().execute(releaseAndCompensate);
}

const JSON_TYPE = "application/json; charset=utf-8";

interface ExistingRecord {
  id: string;
  fingerprint: string | null;
  state: string | null;
  lockedUntil: Date | null;
  lockToken: string | null;
  expiresAt: Date | null;
  responseStatus: number | null;
  responseHeaders: unknown;
  responseBody: string | null;
}

/** Thrown inside the transaction when another request committed the key's record first; the run restarts and replays. */
class LostKeyRace extends Error {}

/** A work run with its key checked at close failed: it starts again with the key read first, which decides its answer. */
class CheckKeyFirst extends Error {}

/** The closing statement's guard found no row to write the key's record to (see guardedFlush). */
class GuardFailed extends Error {}

/** Where a key's answer comes from when it was decided without running the work. */
type Decided = { kind: "replay"; response: SentResponse } | { kind: "fresh"; tookOver?: StrandedClaim };

/** Transient failures free the key (nothing stored) so a retry executes: 429 and every 503 (toServiceError maps what
 * the classifier calls unavailable, and conflicts that outlived their retries, to 503). */
function isTransient(error: ServiceError): boolean {
  return error.status === 429 || error.status === 503 || error.code === "IDEMPOTENCY_IN_PROGRESS";
}

function serialise(outcome: Outcome, replayed = false): SentResponse {
  return {
    status: outcome.status,
    contentType: outcome.contentType ?? JSON_TYPE,
    body: JSON.stringify(outcome.body),
    headers: outcome.headers ?? {},
    replayed,
  };
}

// The first statement of every keyed write: the key's record, a plain read (it runs before any BEGIN).
const readRecord = precompiled((db, p: { organizationId: string; apiKeyId: string; key: string }) =>
  db
    .selectFrom("IdempotencyRecord")
    .select(["id", "fingerprint", "state", "lockedUntil", "lockToken", "expiresAt", "responseStatus", "responseHeaders", "responseBody"])
    .where(ownedByOrganization(p.organizationId))
    .where("apiKeyId", "=", p.apiKeyId)
    .where("key", "=", p.key),
);

/** Decides from the key's record: replay, 409, 422, or run the work (after clearing an expired or abandoned record, or
 * taking over a claim this instance has still to release). */
async function decide(
  tx: Tx,
  claim: IdempotencyClaim,
  now: Date,
  codec: StoredBodyCodec,
  releases: ClaimReleaser | undefined,
): Promise<Decided> {
  const [record] = (await readRecord.execute(tx, claim)) as ExistingRecord[];
  if (!record) return { kind: "fresh" };
  const live = (record.expiresAt as Date) > now;
  if (live && record.fingerprint !== claim.fingerprint) {
    throw new ServiceError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used with a different request");
  }
  // A completed record never changes again: replay it (concurrent replays of one key are all answered).
  if (live && record.state === "completed" && record.responseStatus !== null && record.responseBody !== null) {
    const headers = (record.responseHeaders ?? {}) as { contentType?: string; extra?: Record<string, string> };
    return {
      kind: "replay",
      response: {
        status: record.responseStatus,
        contentType: headers.contentType ?? JSON_TYPE,
        body: codec.open(record.responseBody),
        headers: headers.extra ?? {},
        replayed: true,
      },
    };
  }
  // In progress, stranded here: its request already answered (503) and this instance has still to release the claim, so
  // this run releases it (and compensates its attempt) in its own transaction and executes.
  const stranded = live && record.state === "in_progress" ? releases?.takeOver(record.lockToken) : undefined;
  if (stranded) {
    await releaseStrandedClaim(tx, stranded, now).catch((error) => {
      releases?.add(stranded);
      throw error;
    });
    return { kind: "fresh", tookOver: stranded };
  }
  // In progress with a live lease: a two-transaction write between its transactions.
  if (live && (record.lockedUntil as Date) > now) {
    throw new ServiceError("IDEMPOTENCY_IN_PROGRESS", "A request with this Idempotency-Key is still being processed; retry later", {
      retryAfterSeconds: 1,
    });
  }
  if (live && record.state === "in_progress") await stillHeldByIntent(tx, record.id);
  // Expired (not purged yet), or in progress whose holder's lease ran out (presumed dead): the key is free again. Only
  // that record goes (by id): if another request replaced it meanwhile, this run loses the race at commit.
  await tx.deleteFrom("IdempotencyRecord").where("id", "=", record.id).execute();
  return { kind: "fresh" };
}

/** A claim whose lease ran out while its provider intent is open is the reconciler's to answer: still in progress. */
async function stillHeldByIntent(tx: Tx, recordId: string): Promise<void> {
  if (await keyHeldByOpenIntent(tx, recordId)) {
    throw new ServiceError("IDEMPOTENCY_IN_PROGRESS", "The provider's outcome of this request is being confirmed; retry later", {
      retryAfterSeconds: 1,
    });
  }
}

/** A write of the key's record that returns the rows it wrote (the claim's insert, completion or release). */
/** Runs the closing statement (server/db/closing-statement.ts); a failed guard is GuardFailed. */
async function flush(db: Kysely<DB>, writes: ClosingWrite[], options: { guard?: ClosingWrite; final?: boolean } = {}): Promise<void> {
  const statement = closingStatement(db, writes, options);
  if (!statement) return;
  try {
    await db.executeQuery(statement);
  } catch (error) {
    if (options.guard && (error as { code?: unknown }).code === GUARD_FAILED) throw new GuardFailed();
    throw error;
  }
}

/** The deferred writes of a unit of work that is not a request's (the workflow dispatcher's transaction, the approval
 * expiry sweeper's), in one statement, before its transaction commits. */
export async function flushDeferred(uow: UnitOfWork): Promise<void> {
  await flush(uow.tx, uow.takeDeferred());
}

function recordValues(claim: IdempotencyClaim, now: Date, ttlHours: number) {
  return {
    id: newId("idem"),
    organizationId: claim.organizationId,
    apiKeyId: claim.apiKeyId,
    method: claim.method,
    path: claim.path,
    key: claim.key,
    fingerprint: claim.fingerprint,
    expiresAt: new Date(now.getTime() + ttlHours * 3_600_000),
  };
}

function responseColumns(response: SentResponse, codec: StoredBodyCodec) {
  const extra = Object.keys(response.headers).length > 0 ? { extra: response.headers } : {};
  return {
    state: "completed",
    responseStatus: response.status,
    responseHeaders: JSON.stringify({ contentType: response.contentType, ...extra }),
    responseBody: codec.seal(response.body),
  };
}

type RecordRow = Insertable<DB["IdempotencyRecord"]>;

/** Inserts the key's record unless another request's record stands (then it returns no row: the guard fails). One
 * precompiled insert per set of columns (the completed record, the in-progress claim). */
const recordInserts = new Map<string, PrecompiledQuery<RecordRow, unknown>>();
function insertRecord(values: RecordRow): ClosingWrite {
  const columns = Object.keys(values).sort();
  const shape = columns.join(",");
  let template = recordInserts.get(shape);
  if (!template) {
    template = precompiled((db, p: RecordRow) =>
      db
        .insertInto("IdempotencyRecord")
        .values(Object.fromEntries(columns.map((column) => [column, p[column as keyof RecordRow]])) as RecordRow)
        .onConflict((oc) => oc.columns(["organizationId", "apiKeyId", "key"]).doNothing())
        .returning("id"),
    );
    recordInserts.set(shape, template);
  }
  return templateWrite(template, values);
}

/** The closing statement: the deferred writes and the completed record; a lost race restarts the run. */
async function commitFinal(uow: UnitOfWork, options: UnitOfWorkOptions, response: SentResponse, keptOnly = false) {
  const { claim } = options;
  const writes = uow.takeDeferred(keptOnly);
  if (!claim) {
    await flush(uow.tx, writes, { final: true });
    return;
  }
  const guard = insertRecord({
    ...recordValues(claim, uow.now, options.ttlHours),
    ...responseColumns(response, options.storedBody ?? AS_SENT),
    lockToken: "",
    lockedUntil: uow.now,
  });
  await flush(uow.tx, writes, { guard, final: true }).catch(lostTheKey);
}

/** A failed guard on the record's insert: another request committed the key's record first. */
function lostTheKey(error: unknown): never {
  throw error instanceof GuardFailed ? new LostKeyRace() : error;
}

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
  let readKeyFirst = !options.keyCheckedAtClose;
  for (let attempt = 0; ; attempt++) {
    let first: FirstTransaction;
    try {
      first = await runFirst(options, work, readKeyFirst);
    } catch (error) {
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

/** How the first transaction of a provider step ended: its claim, and its open intent when the step declared one. */
type StepStarted = { step: ProviderStep<unknown>; recordId: string; lockToken: string; intent?: HeldIntent };
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
    first = await db.transaction().execute(async (tx) => {
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
        const lockToken = randomBytes(16).toString("hex");
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

/** The open intent of a reconcilable step; the request holds it as long as the key's claim. */
function startIntent(spec: ProviderIntentSpec, options: UnitOfWorkOptions, at: { recordId: string | null; lockToken: string; now: Date }) {
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
function strandAfterFirst(
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

/** Releases `claim` now; when the database does not answer, it is kept and released once it does. */
async function releaseOrKeep(options: UnitOfWorkOptions, claim: StrandedClaim, now: Date): Promise<void> {
  await releaseStrandedClaim(options.db, claim, now).catch(() => options.claimReleases?.add(claim));
}

/** The rendered error as the key's answer. */
function errorResponse(options: UnitOfWorkOptions, error: ServiceError): SentResponse {
  const rendered = options.renderError(error);
  return { status: error.status, contentType: rendered.contentType, body: JSON.stringify(rendered.body), headers: {}, replayed: false };
}

/** The in-progress claim of a two-transaction write, and how it ends. */
type Claim = {
  recordId: string;
  lockToken: string;
};

type CompletedColumns = ReturnType<typeof responseColumns>;

/** The claim answered: its record completed with the response, if the claim is still this request's (returns its id). */
const completeClaimStatement = precompiled((db, p: CompletedColumns & Claim) =>
  db
    .updateTable("IdempotencyRecord")
    .set({ state: p.state, responseStatus: p.responseStatus, responseHeaders: p.responseHeaders, responseBody: p.responseBody })
    .where("id", "=", p.recordId)
    .where("state", "=", "in_progress")
    .where("lockToken", "=", p.lockToken)
    .returning("id"),
);

function completeClaim(claim: Claim, response: SentResponse, codec: StoredBodyCodec): ClosingWrite {
  return templateWrite(completeClaimStatement, { ...responseColumns(response, codec), ...claim });
}

/** The final answer of a key whose write someone else finished (the reconciler, server/domain/reconcile/): written to
 * its record whatever its state (in progress after a crash, or completed with the unknown-outcome answer), as sent —
 * no reconcilable write's answer is sealed. Its lock token goes with it, as on any completed record: a late release or
 * completion by the request's token (server/db/claim-releases.ts) then finds nothing to act on. */
export function answerKeyRecord(recordId: string, outcome: Outcome): ClosingWrite {
  const columns = { ...responseColumns(serialise(outcome), AS_SENT), lockToken: "" };
  return builtWrite((db) => db.updateTable("IdempotencyRecord").set(columns).where("id", "=", recordId));
}

function releaseClaim(db: Kysely<DB>, claim: Claim) {
  return db.deleteFrom("IdempotencyRecord").where("id", "=", claim.recordId).where("lockToken", "=", claim.lockToken).returning("id");
}

const lostLease = () =>
  new ServiceError("IDEMPOTENCY_IN_PROGRESS", "Another request with this Idempotency-Key took over; retry to get its result", {
    retryAfterSeconds: 1,
  });

/** The provider call (no transaction open), then the second transaction: the result or the compensation, with the
 * key's answer (or, for a transient failure, the claim released so a retry executes). Errors are rethrown only after
 * that transaction committed, so the answer and the compensation stay. */
async function finishAfterProvider(
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
    settled = await options.db.transaction().execute(async (tx) => {
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

/** After a business error rolled the work back: the rows kept on error and the rendered error, as the key's answer. */
async function storeError(options: UnitOfWorkOptions, uow: UnitOfWork, error: ServiceError, keepRows: boolean): Promise<void> {
  const response = errorResponse(options, error);
  try {
    await options.db.transaction().execute(async (tx) => {
      const again = new UnitOfWork(tx, uow.now);
      if (keepRows) for (const write of uow.takeDeferred(true)) again.defer(write);
      // A LostKeyRace (someone else answered the key in the meantime) rolls this transaction back: theirs stands, and
      // the rows kept on error (decisions, a failure's event) go with it — the key's work happened once, as theirs.
      await commitFinal(again, options, response);
    });
  } catch {
    // The key was answered by another request, or the store is unreachable: the error is answered but not stored (a
    // retry then replays theirs, or executes); nothing of this attempt was written.
  }
}
