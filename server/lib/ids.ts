import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes are drawn from the OS 4 KiB at a time: one randomFillSync per id showed up at ≈1.5% of a request's CPU
// in `npm run bench:profile` (every request gets an id, every write several).
const pool = Buffer.alloc(4096);
let next = pool.length;

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
