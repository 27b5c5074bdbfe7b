import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes are drawn from the OS 4 KiB at a time: one randomFillSync per id showed up at ≈1.5% of a request's CPU
// in `npm run bench:profile` (every request gets an id, every write several), and one randomBytes(n) per token
// (a sandbox payment's transaction hash, a provider step's lock token) at ≈0.02 ms each. Every byte is used once.
const pool = Buffer.alloc(4096);
let next = pool.length;

/** `count` (≤ 4096) fresh random bytes: the pool's offset where they start. */
function takeBytes(count: number): number {
  if (count > pool.length) throw new RangeError(`at most ${pool.length} random bytes at a time`);
  if (next + count > pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const at = next;
  next += count;
  return at;
}

/** `count` random bytes as lowercase hex (2 × count characters), as `randomBytes(count).toString("hex")`. */
export function randomHex(count: number): string {
  const at = takeBytes(count);
  return pool.toString("hex", at, at + count);
}

/** `count` random bytes in a Buffer of their own, as `randomBytes(count)`. */
export function randomBuffer(count: number): Buffer {
  const at = takeBytes(count);
  return Buffer.from(pool.subarray(at, at + count));
}

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] as number;
}

/** Random base62 string; `length` 22 carries ~131 bits. Rejection sampling keeps it unbiased. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Resource id such as `wal_2YVq9M3bR6t8KxW1pZ7cNd`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(22)}`;
}
