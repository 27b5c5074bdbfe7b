// The Idempotency-Keys this instance reads first, though their writes are checked at close: the keys whose check at
// close did not pay off here — the guard found the key's record standing (a replay, a reuse, a claim in progress), the
// work failed, or the closing statement did — most recent last, at most KEYS_TO_READ_FIRST of them.
//
// A work whose key is checked at close (run-unit.ts, "Checked at close") saves the key's read on a fresh key, the
// common case, but pays a whole wasted run of its work when the key stands already: the run fails the closing
// statement's guard and starts again with the read. A key that did so once is likely to come again (a client replaying
// an answer, a retry loop after a 503), so it is read first from then on and a replay costs the read alone. A fresh
// key that succeeded is not remembered: the write path keeps no memory per request. This is a hint, never a decision:
// a key forgotten here, or met on another instance, is checked at close and still answered from the database.

/** How many keys an instance remembers: ≈ 1–3 MB at the key's 255 characters at most. */
export const KEYS_TO_READ_FIRST = 10_000;

/** What names a key's record (types.ts IdempotencyClaim has these; its own import would make a cycle). */
interface KeyIdentity {
  organizationId: string;
  apiKeyId: string;
  key: string;
}

// The record's own identity: the key is unique per organization and API key.
const identityOf = (claim: KeyIdentity) => `${claim.apiKeyId}\n${claim.organizationId}\n${claim.key}`;

export class KeysToReadFirst {
  private readonly limit: number;
  /** Insertion order is age: the first entry is the oldest. */
  private readonly keys = new Set<string>();

  constructor(limit = KEYS_TO_READ_FIRST) {
    this.limit = limit;
  }

  /** Whether `claim`'s key is to be read first. */
  has(claim: KeyIdentity): boolean {
    // Nothing to look up in the usual case (no key ever stood here): no identity string is made.
    return this.keys.size > 0 && this.keys.has(identityOf(claim));
  }

  /** Reads `claim`'s key first from now on; forgets the oldest key beyond the limit. */
  add(claim: KeyIdentity): void {
    this.keys.add(identityOf(claim));
    if (this.keys.size > this.limit) this.keys.delete(this.keys.values().next().value as string);
  }

  /** Forgets every key (as a freshly started instance would): tests of a key met on another instance. */
  clear(): void {
    this.keys.clear();
  }
}
