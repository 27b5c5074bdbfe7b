// Standard Webhooks (https://www.standardwebhooks.com) signing and verification, on node:crypto alone so the server's
// delivery worker and the SDK share one implementation. A message is signed as HMAC-SHA256(secretBytes,
// "{webhook-id}.{webhook-timestamp}.{body}"), sent as `webhook-signature: v1,<base64>`; during a secret rotation the
// header carries one signature per secret, separated by spaces. Secrets are `whsec_` + base64 of the key bytes.
import { createHmac, timingSafeEqual } from "node:crypto";

export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** How far a `webhook-timestamp` may be from the receiver's clock, both ways (replay window). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The request failed verification: a header missing, the timestamp outside the tolerance, or no signature matches. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

export interface SignWebhookInput {
  /** The `webhook-id` header: the event id (`evt_…`), the same on every retry of a delivery. */
  id: string;
  /** The `webhook-timestamp` header: unix seconds of this attempt. */
  timestamp: number;
  /** The exact request body that is sent. */
  body: string;
  /** `whsec_…` secrets; one signature each (two during a rotation overlap). */
  secrets: readonly string[];
}

export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

export interface VerifyWebhookOptions {
  /** Accepted distance between `webhook-timestamp` and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds (default Date.now); for tests. */
  now?: () => number;
}

/** The key bytes of a `whsec_…` secret (the prefix is optional, as in the reference library). */
export function decodeWebhookSecret(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  // Buffer.from(…, "base64") skips characters it does not know; a typo must not silently become another key.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new TypeError("webhook secret: expected whsec_ followed by base64");
  return Buffer.from(encoded, "base64");
}

function sign(key: Buffer, id: string, timestamp: string | number, body: string | Uint8Array): string {
  return createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64");
}

/** The `webhook-signature` header value: `v1,<base64>` per secret, separated by spaces. */
export function signWebhook({ id, timestamp, body, secrets }: SignWebhookInput): string {
  if (secrets.length === 0) throw new TypeError("signWebhook: at least one secret is required");
  if (!Number.isInteger(timestamp)) throw new TypeError("signWebhook: timestamp must be whole unix seconds");
  return secrets.map((secret) => `v1,${sign(decodeWebhookSecret(secret), id, timestamp, body)}`).join(" ");
}

/** All three Standard Webhooks headers for one attempt. */
export function webhookHeaders(input: SignWebhookInput): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return { "webhook-id": input.id, "webhook-timestamp": String(input.timestamp), "webhook-signature": signWebhook(input) };
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== "undefined" && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    // Plain objects from other frameworks may keep the sender's capitalisation (Webhook-Id).
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  return Array.isArray(value) ? value.join(" ") : value;
}

/**
 * Checks a received webhook and returns its parsed JSON body. `payload` must be the raw body exactly as received
 * (a re-serialised object does not verify). Throws WebhookVerificationError when it does not verify.
 */
export function verifyWebhook<T = unknown>(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): T {
  const id = header(headers, "webhook-id");
  const timestampHeader = header(headers, "webhook-timestamp");
  const signatureHeader = header(headers, "webhook-signature");
  if (!id || !timestampHeader || !signatureHeader) {
    throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header");
  }
  if (!/^\d+$/.test(timestampHeader)) throw new WebhookVerificationError("Invalid webhook-timestamp header");

  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const timestamp = Number(timestampHeader);
  if (now - timestamp > tolerance) throw new WebhookVerificationError("Message timestamp too old");
  if (timestamp - now > tolerance) throw new WebhookVerificationError("Message timestamp too new");

  const expected = Buffer.from(sign(decodeWebhookSecret(secret), id, timestampHeader, payload));
  let matched = false;
  for (const entry of signatureHeader.split(" ")) {
    const comma = entry.indexOf(",");
    // Other versions (e.g. v1a, asymmetric) are not ours to check; a receiver skips what it does not understand.
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const candidate = Buffer.from(entry.slice(comma + 1));
    // timingSafeEqual needs equal lengths; the length of a base64 HMAC-SHA256 is public anyway (44).
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError("No matching signature found");

  const text = typeof payload === "string" ? payload : Buffer.from(payload).toString("utf8");
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new WebhookVerificationError("Payload is not valid JSON");
  }
}
