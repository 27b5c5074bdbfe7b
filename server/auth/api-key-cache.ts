// In-process cache of verified API keys, keyed by the key's SHA-256 hash. Every request used to pay one database
// round trip (and a Prisma query compile, ~0.9 ms of CPU) to look its key up; the cache answers repeat callers from
// memory. Revocation through this process's admin API evicts at once; a revocation made through another instance
// takes effect here when the entry expires (API_KEY_CACHE_TTL_MS, default 5 s; 0 turns the cache off). Unknown keys
// are not cached, so a key created a moment ago is never refused from a stale "missing" entry.
import type { AuthContext } from "../context.ts";

interface Entry {
  auth: AuthContext;
  expiresAt: number;
}

export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(hash: string): AuthContext | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.auth;
  }

  set(hash: string, auth: AuthContext): void {
    if (this.ttlMs <= 0) return;
    // Map keeps insertion order: when full, drop the oldest entry (FIFO bounds memory under key churn).
    if (this.entries.size >= this.maxEntries && !this.entries.has(hash)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { auth, expiresAt: this.now() + this.ttlMs });
  }

  /** Evicts every cached entry of the key with this id (revocation). */
  evictKeyId(apiKeyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.auth.apiKeyId === apiKeyId) this.entries.delete(hash);
  }
}
