// How an Idempotency-Key is read and what a request is compared on, shared by the server (server/idempotency/
// idempotency-key.ts hashes the fingerprint; server/middleware/idempotency.ts) and the partner mock (../mock/
// idempotency.ts keeps it as text). Pure (no import), so the SDK package carries it and a browser can run it.

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

/** JSON with object keys sorted and undefined members left out, so the same body always reads the same way. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** What a key's request is compared on: method, path and canonical body. The same key on another endpoint or with
 * another body is a reuse (422 IDEMPOTENCY_KEY_REUSED). */
export function requestFingerprintText(method: string, path: string, body: unknown): string {
  return `${method} ${path}\n${body === undefined ? "" : canonicalJson(body)}`;
}
