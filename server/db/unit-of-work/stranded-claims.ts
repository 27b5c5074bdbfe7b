// Stranded claims. A claim is released when its request ends, not when its lease does. When the request answers 503
// because the database stopped answering while its claim may stand — the first transaction's commit cut (the claim and
// the intent may have committed, the provider was never called), the second transaction failed, or the release itself
// failed — the claim (and the intent of an attempt whose provider call never ran or failed) is kept in this instance's
// list (server/db/claim-releases.ts) and released as soon as the database answers again; a retry that meets it here
// takes it over at once (decide, server/db/unit-of-work/idempotency-claim.ts). Only a claim whose process died waits out
// its lease — and the claim of a reconcilable step whose provider may have been called: the reconciler answers that one
// (a release would let a retry execute it again).
import type { Kysely } from "kysely";
import { inTransaction } from "../direct-statements.ts";
import type { DB, Tx } from "../kysely.ts";
import type { Claim, StrandedClaim, UnitOfWorkOptions } from "./types.ts";
import { flushDeferred, UnitOfWork } from "./unit.ts";

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
  return db.isTransaction ? releaseAndCompensate(db as Tx) : inTransaction(db, releaseAndCompensate);
}

/** Releases `claim` now; when the database does not answer, it is kept and released once it does. */
export async function releaseOrKeep(options: UnitOfWorkOptions, claim: StrandedClaim, now: Date): Promise<void> {
  await releaseStrandedClaim(options.db, claim, now).catch(() => options.claimReleases?.add(claim));
}

export function releaseClaim(db: Kysely<DB>, claim: Claim) {
  return db.deleteFrom("IdempotencyRecord").where("id", "=", claim.recordId).where("lockToken", "=", claim.lockToken).returning("id");
}
