import { createHash } from "node:crypto";

/** Parses an Idempotency-Key header: 1–255 printable ASCII characters, or an IETF structured-field string ("…"). */
export function parseIdempotencyKey(raw: string): string | null {
  let key = raw.trim();
  if (key.startsWith('"') || key.endsWith('"')) {
    // Quoted: it must be a well-formed sf-string ("…" with only \" and \\ escapes).
    const match = /^"((?:[^"\\]|\\["\\])*)"$/.exec(key);
    if (!match) return null;
    key = (match[1] as string).replace(/\\(["\\])/g, "$1");
  }
  if (key.length < 1 || key.length > 255) return null;
  return /^[\x20-\x7E]+$/.test(key) ? key : null;
}

/** JSON with object keys sorted, so the same body always hashes the same way. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** SHA-256 over method, path and canonical body: the same key on another endpoint or with another body is a reuse. */
export function fingerprintRequest(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${body === undefined ? "" : canonicalJson(body)}`)
    .digest("hex");
}
