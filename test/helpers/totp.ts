// RFC 6238 TOTP (SHA-1, 6 digits, 30 s steps) from a base32 secret: what an authenticator app shows, for tests that
// enrol and verify a member's second factor.
import { createHmac } from "node:crypto";

function base32(secret: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret.replace(/=+$/, "").toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

export function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, "0");
}

const STEP_MS = 30_000;
/** The last time step handed out per secret, in this test process. */
const handedOut = new Map<string, number>();

/**
 * A code the server has not accepted yet, as a person would type it: the server takes each code once (a later step than
 * the last one accepted), so this hands out this step's code, or the next step's (valid under the ±30 s drift) when this
 * step's was already handed out, and waits for the next step when both were.
 */
export async function freshTotp(secret: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(now, (handedOut.get(secret) ?? Number.NEGATIVE_INFINITY) + 1);
    if (step <= now + 1) {
      handedOut.set(secret, step);
      return totp(secret, step * STEP_MS);
    }
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * STEP_MS - Date.now() + 50));
  }
}
