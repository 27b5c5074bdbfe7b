// Reading the key and the canonical body are the SDK's (sdk/src/protocol/idempotency-key.ts, which the partner mock
// runs too); the server keeps only a SHA-256 of the fingerprint.
import { createHash } from "node:crypto";
import { canonicalJson, parseIdempotencyKey, requestFingerprintText } from "../../sdk/src/protocol/idempotency-key.ts";

export { canonicalJson, parseIdempotencyKey };

/** SHA-256 over method, path and canonical body: the same key on another endpoint or with another body is a reuse. */
export function fingerprintRequest(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(requestFingerprintText(method, path, body))
    .digest("hex");
}
