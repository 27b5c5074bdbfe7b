import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random base62 string; `length` 22 carries ~131 bits. Rejection sampling keeps it unbiased. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Resource id such as `wal_2YVq9M3bR6t8KxW1pZ7cNd`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(22)}`;
}
