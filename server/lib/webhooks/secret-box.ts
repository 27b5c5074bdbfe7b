// Endpoint signing secrets at rest: sealed with AES-256-GCM under WEBHOOK_SECRETS_KEY, so a database dump alone does not
// let anyone forge our signatures. The delivery worker opens a secret only to sign; the API returns it only on create and
// rotate. A version prefix lets a later format (or key rotation) coexist with rows sealed today.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (the part after the prefix is the HMAC key). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** `v1.<iv b64>.<tag b64>.<ciphertext b64>`; a fresh random IV per call, so sealing the same secret twice differs. */
export function sealSecret(secret: string, key: Buffer): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64"), tag.toString("base64"), ciphertext.toString("base64")].join(".");
}

/** Throws when the value is malformed, was sealed under another key, or was altered (GCM authentication). */
export function openSecret(sealed: string, key: Buffer): string {
  assertKey(key);
  const parts = sealed.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error("sealed webhook secret: unknown format");
  const [, ivB64, tagB64, ciphertextB64] = parts as [string, string, string, string];
  const iv = Buffer.from(ivB64, "base64");
  const tag = Buffer.from(tagB64, "base64");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error("sealed webhook secret: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertextB64, "base64")), decipher.final()]).toString("utf8");
  } catch {
    // Never echo the sealed value or the key: the message reaches logs.
    throw new Error("sealed webhook secret: authentication failed (wrong WEBHOOK_SECRETS_KEY or altered value)");
  }
}

/** Opens with the first key that fits: the current WEBHOOK_SECRETS_KEY, then, while it is rotated, the previous one. */
export function openSecretWithAny(sealed: string, keys: Buffer[]): string {
  let failure: unknown;
  for (const key of keys) {
    try {
      return openSecret(sealed, key);
    } catch (error) {
      failure = error;
    }
  }
  throw failure ?? new Error("sealed webhook secret: no key to open it");
}

/** WEBHOOK_SECRETS_KEY is base64 of exactly 32 bytes (AES-256). */
export function parseSecretsKey(base64: string): Buffer {
  const trimmed = base64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) throw new Error("WEBHOOK_SECRETS_KEY must be base64 (32 bytes)");
  const key = Buffer.from(trimmed, "base64");
  if (key.length !== KEY_BYTES) throw new Error(`WEBHOOK_SECRETS_KEY must decode to ${KEY_BYTES} bytes, got ${key.length}`);
  return key;
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`webhook secrets key must be ${KEY_BYTES} bytes`);
}
