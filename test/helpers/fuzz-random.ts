// A small seeded PRNG (mulberry32) so every fuzz run is reproducible from its seed.

export class Rng {
  private state: number;

  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed;
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)] as T;
  }

  /** A fresh generator derived from this one, so one request's choices do not shift the next request's. */
  fork(salt: number): Rng {
    return new Rng((Math.imul(this.seed ^ 0x9e3779b9, 31) + salt * 0x85ebca6b) >>> 0);
  }
}

/** The seed CI runs: `npm test` must give the same verdict on the same commit. Explore with FUZZ_SEED=random. */
export const DEFAULT_FUZZ_SEED = 20261122;

/** The seed of this run: FUZZ_SEED when set (decimal, 0x hex, or `random` for one derived from the clock), else
 * DEFAULT_FUZZ_SEED. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FUZZ_SEED;
  if (raw === undefined || raw === "") return DEFAULT_FUZZ_SEED;
  if (raw !== "random") {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new Error(`FUZZ_SEED must be an integer 0..2^32-1, got ${raw}`);
    return value;
  }
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}

/** How many requests to generate: FUZZ_COUNT when set, else the default. */
export function fuzzCount(defaultCount: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FUZZ_COUNT;
  if (raw === undefined || raw === "") return defaultCount;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`FUZZ_COUNT must be a positive integer, got ${raw}`);
  return value;
}
