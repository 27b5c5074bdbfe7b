// Idempotency-Keys as the server handles them (server/idempotency/idempotency-key.ts, server/db/unit-of-work.ts): a key
// belongs to one caller, method, path and body; the first answer is kept and replayed; a key used for another request
// is refused.
import { clone } from "./mock-state.ts";
import type { MockResult } from "./types.ts";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** An Idempotency-Key as the server reads it: 1–255 printable ASCII characters, or a structured-field string ("…"). */
export function parseIdempotencyKey(raw: string): string | null {
  let key = raw.trim();
  if (key.startsWith('"') || key.endsWith('"')) {
    const match = /^"((?:[^"\\]|\\["\\])*)"$/.exec(key);
    if (!match) return null;
    key = (match[1] as string).replace(/\\(["\\])/g, "$1");
  }
  if (key.length < 1 || key.length > 255) return null;
  return /^[\x20-\x7E]+$/.test(key) ? key : null;
}

/** Canonical JSON (sorted keys, undefined members left out), so the same body always fingerprints the same way. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export const requestFingerprint = (method: string, path: string, body: unknown) =>
  `${method} ${path}\n${body === undefined ? "" : canonical(body)}`;

export class IdempotencyRecords {
  private records = new Map<string, { fingerprint: string; result: MockResult }>();

  reset(): void {
    this.records = new Map();
  }

  /** The kept answer for this caller's key: replayed (`Idempotent-Replayed: true`), or "reused" for another request. */
  lookup(key: string, fingerprint: string): MockResult | "reused" | undefined {
    const previous = this.records.get(key);
    if (!previous) return undefined;
    if (previous.fingerprint !== fingerprint) return "reused";
    return {
      ...previous.result,
      body: clone(previous.result.body),
      headers: { ...previous.result.headers, "idempotent-replayed": "true" },
    };
  }

  keep(key: string, fingerprint: string, result: MockResult): void {
    this.records.set(key, { fingerprint, result: { ...result, body: clone(result.body) } });
  }
}
