// TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s steps — what authenticator apps use) through otplib.
import { generateSecret, generateURI, verify } from "otplib";

export const newTotpSecret = (): string => generateSecret();

export const totpUri = (secret: string, account: string): string => generateURI({ issuer: "Coinplane", label: account, secret });

/** A 6-digit code of this step or the neighbouring ones (±30 s of clock drift). */
export async function verifyTotp(secret: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  try {
    return (await verify({ secret, token: code, epochTolerance: 30 })).valid;
  } catch {
    return false;
  }
}
