// The shapes the unit of work shares with its callers and between its parts (server/db/unit-of-work/): the request's
// key, the answer it sends and stores, how a request configures its unit, and the claims it may leave stranded.
import type { Kysely } from "kysely";
import type { ServiceError } from "../../errors/service-error.ts";
import type { DB } from "../kysely.ts";
import type { KeysToReadFirst } from "./keys-to-read-first.ts";
import type { UnitOfWork } from "./unit.ts";

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

/** How a key's answer rests in its record: as sent, or sealed where the answer carries a secret (a webhook signing
 * secret): the replay opens it, so a retry gets the same answer while no plaintext secret is stored. */
export interface StoredBodyCodec {
  seal(body: string): string;
  open(stored: string): string;
}

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
   * Skip the key's first read and let the closing statement's guarded insert decide (see "Checked at close" in run-unit.ts):
   * for a work that writes nothing before its closing statement and calls no one before it (its rows are all deferred;
   * a provider step calls its provider after the first transaction). A key met before is then one wasted run of the
   * work, after which the run starts again with the read; an error of the work does the same, so only a fresh success
   * is answered without the read. A key whose check at close failed on this instance is read first (`keysToReadFirst`).
   */
  keyCheckedAtClose?: boolean;
  /** The keys whose check at close did not pay off on this instance (keys-to-read-first.ts): a `keyCheckedAtClose` work
   * reads such a key first, so its next replay costs the read alone and not a wasted run. Without it every such key is
   * checked at close. */
  keysToReadFirst?: KeysToReadFirst;
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

/** The in-progress claim of a two-transaction write, and how it ends. */
export type Claim = {
  recordId: string;
  lockToken: string;
};
