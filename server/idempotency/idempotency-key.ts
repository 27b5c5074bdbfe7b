import { createHash } from "node:crypto";

/** Parses an Idempotency-Key header: 1–255 printable ASCII characters, or an IETF structured-field string ("…"). */
export function parseIdempotencyKey(raw: string): string | null {
  let key = raw.trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) {
    const inner = key.slice(1, -1);
    if (/(^|[^\\])"/.test(inner) || /\\[^"\\]/.test(inner) || (inner.endsWith("\\") && !inner.endsWith("\\\\"))) return null;
    key = inner.replace(/\\(["\\])/g, "$1");
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

export function fingerprintBody(body: unknown): string {
  return createHash("sha256")
    .update(body === undefined ? "" : canonicalJson(body))
    .digest("hex");
}
