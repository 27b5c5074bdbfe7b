// API key format, hashing and verification. Keys are `cp_<environment>_<43 base62 chars>` (~256 bits of randomness);
// only their SHA-256 hash is stored.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Environment } from "../../context.ts";
import { randomBase62 } from "../../lib/ids.ts";

const KEY_PATTERN = /^cp_(sandbox|production)_[0-9A-Za-z]{43}$/;

export function generateApiKey(environment: Environment): { key: string; prefix: string; hash: string } {
  const key = `cp_${environment}_${randomBase62(43)}`;
  return { key, prefix: key.slice(0, `cp_${environment}_`.length + 8), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Constant-time comparison of two secrets of any length (hashes both first). */
export function secretsEqual(given: string, expected: string): boolean {
  return digestsEqual(hashApiKey(given), hashApiKey(expected));
}

/** `write` implies `read` of the same resource (sdk/src/protocol/scopes.ts: the partner mock checks scopes with it too). */
export { hasScope } from "../../../sdk/src/protocol/scopes.ts";
