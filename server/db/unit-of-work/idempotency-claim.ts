// The idempotency claim and the stored answer: the key's record read first (replay, 409, 422, or run the work), the
// record written by the closing statement with the answer (guarded: a concurrent duplicate that wrote it first makes
// this run lose the race), the answer of a claim completed, and a business error stored as the key's answer. The
// flow that uses these: server/db/unit-of-work/run-unit.ts.
import type { Insertable } from "kysely";
import { ServiceError } from "../../errors/service-error.ts";
import { newId } from "../../lib/ids.ts";
import { builtWrite, type ClosingWrite, templateWrite } from "../closing-statement.ts";
import { inTransaction } from "../direct-statements.ts";
import type { DB, Tx } from "../kysely.ts";
import { ownedByOrganization } from "../owned-by.ts";
import { type PrecompiledQuery, precompiled } from "../precompiled-query.ts";
import { keyHeldByOpenIntent } from "../provider-intents.ts";
import { releaseStrandedClaim } from "./stranded-claims.ts";
import type {
  Claim,
  ClaimReleaser,
  IdempotencyClaim,
  Outcome,
  SentResponse,
  StoredBodyCodec,
  StrandedClaim,
  UnitOfWorkOptions,
} from "./types.ts";
import { flush, GuardFailed, UnitOfWork } from "./unit.ts";

export const AS_SENT: StoredBodyCodec = { seal: (body) => body, open: (stored) => stored };

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
export class LostKeyRace extends Error {}

/** Where a key's answer comes from when it was decided without running the work. */
type Decided = { kind: "replay"; response: SentResponse } | { kind: "fresh"; tookOver?: StrandedClaim };

/** Transient failures free the key (nothing stored) so a retry executes: 429 and every 503 (toServiceError maps what
 * the classifier calls unavailable, and conflicts that outlived their retries, to 503). */
export function isTransient(error: ServiceError): boolean {
  return error.status === 429 || error.status === 503 || error.code === "IDEMPOTENCY_IN_PROGRESS";
}

export function serialise(outcome: Outcome, replayed = false): SentResponse {
  return {
    status: outcome.status,
    contentType: outcome.contentType ?? JSON_TYPE,
    body: JSON.stringify(outcome.body),
    headers: outcome.headers ?? {},
    replayed,
  };
}

// The first statement of every keyed write: the key's record, a plain read (it runs before any BEGIN; read again after
// a stale record changed under the run, it runs in the transaction its delete began).
const readRecord = precompiled((db, p: { organizationId: string; apiKeyId: string; key: string }) =>
  db
    .selectFrom("IdempotencyRecord")
    .select(["id", "fingerprint", "state", "lockedUntil", "lockToken", "expiresAt", "responseStatus", "responseHeaders", "responseBody"])
    .where(ownedByOrganization(p.organizationId))
    .where("apiKeyId", "=", p.apiKeyId)
    .where("key", "=", p.key),
);

/** How often the key's record is read when it keeps changing between the read and the delete of a stale record. */
export const STALE_RECORD_READS = 3;

/** Decides from the key's record: replay, 409, 422, or run the work (after clearing an expired or abandoned record, or
 * taking over a claim this instance has still to release). */
export async function decide(
  tx: Tx,
  claim: IdempotencyClaim,
  now: Date,
  codec: StoredBodyCodec,
  releases: ClaimReleaser | undefined,
): Promise<Decided> {
  for (let read = 0; read < STALE_RECORD_READS; read++) {
    const [record] = (await readRecord.execute(tx, claim)) as ExistingRecord[];
    if (!record) return { kind: "fresh" };
    const decided = await decideOn(tx, record, claim, now, codec, releases);
    if (decided !== "changed") return decided;
  }
  // Changed under this run at every read: answered as a claim in progress, so the client retries once it has settled.
  throw new ServiceError("IDEMPOTENCY_IN_PROGRESS", "A request with this Idempotency-Key is still being processed; retry later", {
    retryAfterSeconds: 1,
  });
}

/** The decision on the record as read; "changed" when the stale record to clear was no longer as read (read it again). */
async function decideOn(
  tx: Tx,
  record: ExistingRecord,
  claim: IdempotencyClaim,
  now: Date,
  codec: StoredBodyCodec,
  releases: ClaimReleaser | undefined,
): Promise<Decided | "changed"> {
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
  // that record goes, and only as it was read (id, state, lock token): since the read, the reconciler may have completed
  // it with its write's answer (closing the intent just before the check above), or another retry cleared it and claimed
  // the key anew. Deleted by id alone, the completed record would go and this run execute the write a second time (a
  // card funded twice, card.funded emitted twice). So when nothing is deleted the record is read again: a completed one
  // is replayed, a new claim is 409. A record that another request writes after this delete loses this run the race at
  // commit.
  const deleted = await deleteAsRead(tx, record).execute();
  return deleted.length > 0 ? { kind: "fresh" } : "changed";
}

/** Deletes the stale record if it is still as read; returns its id then. (`= NULL` matches nothing: a null read is IS
 * NULL. The schema's columns are NOT NULL; the read's type allows null.) */
function deleteAsRead(tx: Tx, record: ExistingRecord) {
  return tx
    .deleteFrom("IdempotencyRecord")
    .where("id", "=", record.id)
    .where("state", record.state === null ? "is" : "=", record.state)
    .where("lockToken", record.lockToken === null ? "is" : "=", record.lockToken)
    .returning("id");
}

/** A claim whose lease ran out while its provider intent is open is the reconciler's to answer: still in progress. */
async function stillHeldByIntent(tx: Tx, recordId: string): Promise<void> {
  if (await keyHeldByOpenIntent(tx, recordId)) {
    throw new ServiceError("IDEMPOTENCY_IN_PROGRESS", "The provider's outcome of this request is being confirmed; retry later", {
      retryAfterSeconds: 1,
    });
  }
}

export function recordValues(claim: IdempotencyClaim, now: Date, ttlHours: number) {
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

export function responseColumns(response: SentResponse, codec: StoredBodyCodec) {
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
export function insertRecord(values: RecordRow): ClosingWrite {
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
export async function commitFinal(uow: UnitOfWork, options: UnitOfWorkOptions, response: SentResponse, keptOnly = false) {
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
export function lostTheKey(error: unknown): never {
  throw error instanceof GuardFailed ? new LostKeyRace() : error;
}

/** The rendered error as the key's answer. */
export function errorResponse(options: UnitOfWorkOptions, error: ServiceError): SentResponse {
  const rendered = options.renderError(error);
  return { status: error.status, contentType: rendered.contentType, body: JSON.stringify(rendered.body), headers: {}, replayed: false };
}

type CompletedColumns = ReturnType<typeof responseColumns>;

/** The claim answered: its record completed with the response, if the claim is still this request's (returns its id). */
export const completeClaimStatement = precompiled((db, p: CompletedColumns & Claim) =>
  db
    .updateTable("IdempotencyRecord")
    .set({ state: p.state, responseStatus: p.responseStatus, responseHeaders: p.responseHeaders, responseBody: p.responseBody })
    .where("id", "=", p.recordId)
    .where("state", "=", "in_progress")
    .where("lockToken", "=", p.lockToken)
    .returning("id"),
);

export function completeClaim(claim: Claim, response: SentResponse, codec: StoredBodyCodec): ClosingWrite {
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

/** After a business error rolled the work back: the rows kept on error and the rendered error, as the key's answer. */
export async function storeError(options: UnitOfWorkOptions, uow: UnitOfWork, error: ServiceError, keepRows: boolean): Promise<void> {
  const response = errorResponse(options, error);
  try {
    await inTransaction(options.db, async (tx) => {
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
