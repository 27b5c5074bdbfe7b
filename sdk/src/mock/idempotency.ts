// Idempotency-Keys as the server handles them (server/db/unit-of-work/idempotency-claim.ts): a key belongs to one caller, method, path
// and body; the first answer is kept and replayed; a key used for another request is refused. Reading the key and
// the fingerprint are the server's own code (../protocol/idempotency-key.ts).
import { clone } from "./mock-state.ts";
import type { MockResult } from "./types.ts";

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
