import { createHash } from "node:crypto";
import { canonicalJson } from "../../idempotency/idempotency-key.ts";

/** The payload as stored and hashed: canonical JSON (object keys sorted, `undefined` members dropped), parsed back. */
export function canonicalApprovalPayload(payload: unknown): { json: unknown; hash: string } {
  const text = canonicalJson(payload);
  return { json: JSON.parse(text) as unknown, hash: createHash("sha256").update(text).digest("hex") };
}
