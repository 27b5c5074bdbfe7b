// ReadCache.peek (server/db/cached-read.ts) answers without a promise exactly when read() would answer from memory:
// authentication takes its synchronous branch on it (server/middleware/authenticate.ts). Whatever read() would load,
// peek leaves to read().
import { describe, expect, it, vi } from "vitest";
import { ReadCache } from "../../server/db/cached-read.ts";
import type { ChangeFeed, ChangeListener } from "../../server/db/change-feed.ts";

function feed() {
  let listener: ChangeListener = () => {};
  const state = { trusted: true };
  const changes: ChangeFeed = {
    trusted: () => state.trusted,
    subscribe: (l) => {
      listener = l;
    },
    barrier: async () => {},
    close: async () => {},
  };
  return { changes, state, notify: (table: string, scope: string) => listener(table as never, scope) };
}

describe("ReadCache.peek", () => {
  it("answers what read() stored, counts it as a hit, and is gone once a change drops it", async () => {
    const { changes, notify } = feed();
    const cache = new ReadCache(changes);
    expect(cache.peek("ApiKey", "hash_1", "")).toBeUndefined();
    expect(cache.misses).toBe(0);
    const load = vi.fn(async () => ({ id: "key_1" }));
    await cache.read("ApiKey", "hash_1", "", load);
    const hits = cache.hits;
    expect(cache.peek("ApiKey", "hash_1", "")?.value).toEqual({ id: "key_1" });
    expect(cache.hits).toBe(hits + 1);
    expect(cache.peek("ApiKey", "hash_2", "")).toBeUndefined();
    notify("ApiKey", "hash_1");
    expect(cache.peek("ApiKey", "hash_1", "")).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("a cached miss is answered as a value of undefined, not as nothing cached", async () => {
    const cache = new ReadCache(feed().changes);
    await cache.read("Organization", "org_1", "settings", async () => undefined, true);
    const cached = cache.peek("Organization", "org_1", "settings");
    expect(cached).toBeDefined();
    expect(cached?.value).toBeUndefined();
  });

  it("answers nothing while the change feed is not trusted, nor past the copy's age", async () => {
    const { changes, state } = feed();
    let now = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => now);
    try {
      const cache = new ReadCache(changes, { maxEntries: 10, maxAgeMs: 60_000 });
      await cache.read("ApiKey", "hash_1", "", async () => ({ id: "key_1" }));
      state.trusted = false;
      expect(cache.peek("ApiKey", "hash_1", "")).toBeUndefined();
      state.trusted = true;
      expect(cache.peek("ApiKey", "hash_1", "")).toBeDefined();
      now += 60_000;
      expect(cache.peek("ApiKey", "hash_1", "")).toBeUndefined();
    } finally {
      vi.restoreAllMocks();
    }
  });
});
