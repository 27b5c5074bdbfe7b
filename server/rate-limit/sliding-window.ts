// Sliding-window log: a budget keeps the times of the requests it accepted, and a request is accepted when fewer than
// `limit` of them lie in (now − window, now]. At most `limit` requests are therefore accepted in ANY interval of the
// window's length — unlike a fixed window (2× across a boundary) or a token bucket (capacity + refill per window).
// Memory is O(limit) per active budget. A hit covers several budgets at once (key + organization): it is accepted only
// when every one of them has room, and then counted in all of them, atomically (one Lua script on Redis).
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

export interface Budget {
  key: string;
  limit: number;
}

export interface BudgetState {
  /** Requests counted in the window after this hit (the hit included when accepted). */
  count: number;
  /** When, in ms since the epoch, the count next drops below the limit (a full budget) or by one (otherwise). */
  freesAtMs: number;
}

export interface HitResult {
  allowed: boolean;
  budgets: BudgetState[];
}

export interface SlidingWindowStore {
  /** The memory store answers at once (no promise on the request path), Redis with a promise. */
  hit(budgets: Budget[], windowMs: number, nowMs: number): HitResult | Promise<HitResult>;
  close(): void;
}

/** Index of the entry whose departure frees the budget: with `count` entries and room for `limit`, the
 * (count − limit)-th oldest must leave before one more request fits; with room already, the oldest. */
const freeingIndex = (count: number, limit: number) => Math.max(0, count - limit);

/** A budget's accepted request times, ascending, from `head` on: pruning advances `head` (O(entries dropped)) instead
 * of shifting the array on every request, which cost a copy of the whole window per request under high limits. */
interface TimeLog {
  times: number[];
  head: number;
}

const sizeOf = (log: TimeLog) => log.times.length - log.head;

export function memorySlidingWindow(): SlidingWindowStore {
  const logs = new Map<string, TimeLog>();
  let lastSweep = 0;

  function prune(log: TimeLog, floor: number): void {
    while (log.head < log.times.length && (log.times[log.head] as number) <= floor) log.head++;
    // Compact once the dropped prefix is the larger part: amortised O(1) per request.
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
  }

  return {
    hit(budgets, windowMs, nowMs) {
      const floor = nowMs - windowMs;
      // Forget idle budgets now and then so the map stays bounded by the active ones.
      if (nowMs - lastSweep > windowMs) {
        lastSweep = nowMs;
        for (const [key, log] of logs) if (sizeOf(log) === 0 || (log.times[log.times.length - 1] as number) <= floor) logs.delete(key);
      }
      const entries = budgets.map(({ key }) => {
        let log = logs.get(key);
        if (!log) {
          log = { times: [], head: 0 };
          logs.set(key, log);
        }
        prune(log, floor);
        return log;
      });
      const allowed = budgets.every((b, i) => sizeOf(entries[i] as TimeLog) < b.limit);
      if (allowed) {
        for (const log of entries) {
          // Keep the log sorted even if the clock steps back.
          let at = log.times.length;
          while (at > log.head && (log.times[at - 1] as number) > nowMs) at--;
          if (at === log.times.length) log.times.push(nowMs);
          else log.times.splice(at, 0, nowMs);
        }
      }
      return {
        allowed,
        budgets: budgets.map((b, i) => {
          const log = entries[i] as TimeLog;
          const count = sizeOf(log);
          const oldest = log.times[log.head + freeingIndex(count, b.limit)];
          return { count, freesAtMs: oldest === undefined ? nowMs : oldest + windowMs };
        }),
      };
    },
    close() {
      logs.clear();
    },
  };
}

// KEYS: the budgets' sorted sets. ARGV: now (ms), window (ms), member, then one limit per key.
// Returns {allowed, count₁, score₁, count₂, score₂, …} where score is the time of the entry whose departure frees it.
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local counts = {}
local allowed = 1
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= tonumber(ARGV[3 + i]) then allowed = 0 end
end
local out = { allowed }
for i = 1, #KEYS do
  if allowed == 1 then
    redis.call('ZADD', KEYS[i], now, member)
    redis.call('PEXPIRE', KEYS[i], window)
    counts[i] = counts[i] + 1
  end
  local index = counts[i] - tonumber(ARGV[3 + i])
  if index < 0 then index = 0 end
  local entry = redis.call('ZRANGE', KEYS[i], index, index, 'WITHSCORES')
  out[#out + 1] = counts[i]
  out[#out + 1] = entry[2] or ARGV[1]
end
return out
`;

type HitCommand = (numKeys: number, ...args: (string | number)[]) => Promise<(number | string)[]>;

export function redisSlidingWindow(redis: Redis): SlidingWindowStore {
  redis.defineCommand("cpSlidingWindowHit", { lua: HIT_SCRIPT });
  const run = (redis as unknown as { cpSlidingWindowHit: HitCommand }).cpSlidingWindowHit.bind(redis);
  return {
    async hit(budgets, windowMs, nowMs) {
      // Unique per hit: two requests in the same millisecond are two entries.
      const member = `${nowMs}:${randomBytes(6).toString("hex")}`;
      const reply = await run(
        budgets.length,
        ...budgets.map((b) => b.key),
        Math.floor(nowMs),
        windowMs,
        member,
        ...budgets.map((b) => b.limit),
      );
      return {
        allowed: Number(reply[0]) === 1,
        budgets: budgets.map((_b, i) => {
          const oldest = Number(reply[2 + 2 * i]);
          const count = Number(reply[1 + 2 * i]);
          return { count, freesAtMs: count === 0 ? nowMs : oldest + windowMs };
        }),
      };
    },
    close() {},
  };
}
