// The Idempotency-Keys this instance has met, most recent last, at most KEYS_MET_LIMIT of them.
//
// A work whose key is checked at close (run-unit.ts, "Checked at close") saves the key's read on a fresh key, the
// common case, but pays a whole wasted run of its work when the key was met before (a replay, a reuse, a claim in
// progress): the run fails the closing statement's guard and starts again with the read. A replay usually comes back to
// the instance that answered the first request (a client's retry on the same connection, a replay loop), so a key this
// instance has met is read first and replayed at the cost of that read alone. This is a hint, never a decision: a key
// met on another instance, or forgotten here, is checked at close and still answered from the database, one run later.

/** What names a key's record (types.ts IdempotencyClaim has these; its own import would make a cycle). */
interface KeyIdentity {
  organizationId: string;
  apiKeyId: string;
  key: string;
}

/** How many keys an instance remembers: ≈ 1–3 MB at the key's 255 characters at most. */
export const KEYS_MET_LIMIT = 10_000;

export class KeysMet {
  /** Insertion order is age: the first entry is the oldest. */
  private readonly met = new Set<string>();

  constructor(private readonly limit = KEYS_MET_LIMIT) {}

  /** Whether `claim`'s key was met here before; remembers it either way. */
  metBefore(claim: KeyIdentity): boolean {
    // The record's own identity: the key is unique per organization and API key.
    const identity = `${claim.apiKeyId}\n${claim.organizationId}\n${claim.key}`;
    if (this.met.has(identity)) return true;
    this.met.add(identity);
    if (this.met.size > this.limit) this.met.delete(this.met.values().next().value as string);
    return false;
  }

  /** Forgets every key (as a freshly started instance would): tests of a key met on another instance. */
  clear(): void {
    this.met.clear();
  }
}
