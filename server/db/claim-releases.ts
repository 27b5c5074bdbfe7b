// The Idempotency-Key claims this instance could not release when their request ended.
//
// A two-transaction write (server/db/unit-of-work/provider-step.ts) holds an in-progress claim on its key between its transactions.
// When its request ends with the database not answering — the first transaction's commit was cut (the intent and the
// claim may or may not have committed), the second transaction failed, or the statement releasing the claim failed —
// the claim would hold the key until its lease ends (IDEMPOTENCY_LOCK_SECONDS), and every retry meanwhile would answer
// 409 IDEMPOTENCY_IN_PROGRESS although the request had already answered 503. So the instance keeps each such claim (its
// record id and lock token, and what to compensate with it) and releases it as soon as the database answers again: tried
// at once, then again after 100 ms, 200 ms, … at most every MAX_BACKOFF_MS, each try bounded by the pool's timeouts
// (connect, statement, query), and once more when the database closes (shutdown). A retry of the key that reaches this
// instance meanwhile takes the claim over at once (server/db/unit-of-work/idempotency-claim.ts `decide`); one that reaches another
// instance answers 409 until this one has released it, within about MAX_BACKOFF_MS of the database healing.
// A process that dies forgets its list: its claims end with their leases, as before.
import type { Kysely } from "kysely";
import type { DB } from "./kysely.ts";
import { type ClaimReleaser, releaseStrandedClaim, type StrandedClaim } from "./unit-of-work/index.ts";

/** The longest wait between two tries while the database does not answer: bounds how long after healing a claim stays. */
export const MAX_BACKOFF_MS = 500;
const FIRST_BACKOFF_MS = 100;

export class ClaimReleases implements ClaimReleaser {
  private readonly db: Kysely<DB>;
  private readonly clock: () => Date;
  private readonly pending = new Map<string, StrandedClaim>();
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private failures = 0;
  private closed = false;

  constructor(db: Kysely<DB>, clock: () => Date = () => new Date()) {
    this.db = db;
    this.clock = clock;
  }

  /** Claims still waiting for the database. */
  get size(): number {
    return this.pending.size;
  }

  add(claim: StrandedClaim): void {
    if (this.closed) return;
    this.pending.set(claim.lockToken, claim);
    this.schedule(0);
  }

  /** The claim of `lockToken` if this instance still has to release it: the caller releases it itself (in its own
   * transaction) and, should that transaction not commit, hands it back with `add`. */
  takeOver(lockToken: string | null): StrandedClaim | undefined {
    if (lockToken === null) return undefined;
    const claim = this.pending.get(lockToken);
    this.pending.delete(lockToken);
    return claim;
  }

  /** One last pass (shutdown), then nothing more is tried; what still fails ends with its lease. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.draining;
    await this.drain();
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.draining || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draining = this.drain().finally(() => {
        this.draining = undefined;
        if (this.pending.size === 0 || this.closed) return;
        // Still down: back off (100 ms, 200 ms, 400 ms, then every MAX_BACKOFF_MS) until it answers.
        this.schedule(Math.min(FIRST_BACKOFF_MS * 2 ** this.failures++, MAX_BACKOFF_MS));
      });
    }, delayMs);
    // A claim alone does not keep the process up; shutdown drains it through close().
    this.timer.unref();
  }

  /** Tries every pending claim in turn; stops at the first failure (the database is still down). */
  private async drain(): Promise<void> {
    for (const claim of [...this.pending.values()]) {
      try {
        await releaseStrandedClaim(this.db, claim, this.clock());
      } catch {
        return;
      }
      this.pending.delete(claim.lockToken);
      this.failures = 0;
    }
  }
}
