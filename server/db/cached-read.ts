// In-memory copies of the operator-written rows every request reads — API keys, provider connections, organization
// settings — so a request does not spend a database round trip (≈0.1 ms of CPU here, plus the database's own) on
// rows that change a few times a month. A copy is answered only while the change feed is trusted
// (server/db/change-feed.ts): a change made anywhere drops the copies it touches on every instance before the change's
// operator answer returns, and a process that cannot be sure of that reads the database instead.
//
// Each cached row is found by (table, scope, key): the table and scope are what the table's trigger notifies (the key
// hash for ApiKey, the organization for ProviderConnection and Organization), so a change drops every copy of its scope.
import type { Kysely } from "kysely";
import type { ChangeFeed } from "./change-feed.ts";
import type { DB, Queryable } from "./kysely.ts";

/** The tables whose triggers notify the change feed (prisma/migrations/…_change_feed/migration.sql). */
export type CachedTable = "ApiKey" | "ProviderConnection" | "Organization";

interface Entry {
  value: unknown;
  storedAt: number;
}

export interface ReadCacheLimits {
  /** Copies kept in all; past it the oldest scopes go first. */
  maxEntries: number;
  /** A copy older than this is read again even when nothing said it changed (a bound on any missed notification). */
  maxAgeMs: number;
}

export const DEFAULT_READ_CACHE_LIMITS: ReadCacheLimits = { maxEntries: 10_000, maxAgeMs: 60_000 };

export class ReadCache {
  private readonly feed: ChangeFeed;
  private readonly limits: ReadCacheLimits;
  private scopes = new Map<string, Map<string, Entry>>();
  private size = 0;
  /** Bumped by every drop: a read that started before a drop does not store what it read (it may predate the change). */
  private generation = 0;
  hits = 0;
  misses = 0;

  constructor(feed: ChangeFeed, limits: ReadCacheLimits = DEFAULT_READ_CACHE_LIMITS) {
    this.feed = feed;
    this.limits = limits;
    feed.subscribe((table, scope) => (table === "*" ? this.clear() : this.drop(`${table}\n${scope}`)));
  }

  /** The cached copy, or `load()`'s answer (stored when the feed is trusted; `undefined` only with `cacheMisses`). */
  async read<V>(
    table: CachedTable,
    scope: string,
    key: string,
    load: () => Promise<V | undefined>,
    cacheMisses = false,
  ): Promise<V | undefined> {
    const cached = this.peek(table, scope, key);
    if (cached) return cached.value as V | undefined;
    const scopeKey = `${table}\n${scope}`;
    const trusted = this.feed.trusted();
    this.misses++;
    const generation = this.generation;
    const value = await load();
    if (trusted && this.feed.trusted() && generation === this.generation && (value !== undefined || cacheMisses)) {
      this.store(scopeKey, key, value);
    }
    return value;
  }

  /** The copy read() would answer with, without a promise (a hot path's synchronous branch); undefined when read()
   * would load. The copy is the `value` of what is returned, which may itself be undefined (a cached miss). */
  peek(table: CachedTable, scope: string, key: string): { readonly value: unknown } | undefined {
    if (!this.feed.trusted()) return undefined;
    const entry = this.scopes.get(`${table}\n${scope}`)?.get(key);
    if (!entry || Date.now() - entry.storedAt >= this.limits.maxAgeMs) return undefined;
    this.hits++;
    return entry;
  }

  private store(scopeKey: string, key: string, value: unknown): void {
    deepFreeze(value); // one copy serves every request: none may change it
    let entries = this.scopes.get(scopeKey);
    if (!entries) {
      entries = new Map();
      this.scopes.set(scopeKey, entries);
    }
    if (!entries.has(key)) this.size++;
    entries.set(key, { value, storedAt: Date.now() });
    for (const [oldest, oldestEntries] of this.scopes) {
      if (this.size <= this.limits.maxEntries) break;
      this.scopes.delete(oldest);
      this.size -= oldestEntries.size;
    }
  }

  private drop(scopeKey: string): void {
    this.generation++;
    const entries = this.scopes.get(scopeKey);
    if (!entries) return;
    this.scopes.delete(scopeKey);
    this.size -= entries.size;
  }

  /** Drops every copy (the feed's "*"; a test that needs every copy read afresh, so none ages out while it counts). */
  clear(): void {
    this.generation++;
    this.scopes.clear();
    this.size = 0;
  }
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}

// Request paths hold a Kysely instance or one of its transactions, never the Database that opened it; both share the
// dialect adapter Kysely created for that database, so the cache is found through it.
const cacheByAdapter = new WeakMap<object, ReadCache>();

export function attachReadCache(db: Kysely<DB>, cache: ReadCache): void {
  cacheByAdapter.set(db.getExecutor().adapter, cache);
}

/** The database's cached copy, when its cache would answer without loading (see ReadCache.peek). */
export function cachedPeek(db: Queryable, table: CachedTable, scope: string, key: string): { readonly value: unknown } | undefined {
  return cacheByAdapter.get(db.getExecutor().adapter)?.peek(table, scope, key);
}

/** Reads through the database's cache (see ReadCache.read); without one, `load()` answers. */
export function cachedRead<V>(
  db: Queryable,
  table: CachedTable,
  scope: string,
  key: string,
  load: () => Promise<V | undefined>,
  options: { cacheMisses?: boolean } = {},
): Promise<V | undefined> {
  const cache = cacheByAdapter.get(db.getExecutor().adapter);
  return cache ? cache.read(table, scope, key, load, options.cacheMisses) : load();
}
