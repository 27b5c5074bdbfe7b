// TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s steps — what authenticator apps use) through otplib.
import { generateSecret, generateURI, verify } from "otplib";

export const newTotpSecret = (): string => generateSecret();

export const totpUri = (secret: string, account: string): string => generateURI({ issuer: "Coinplane", label: account, secret });

/**
 * A 6-digit code of this step or the neighbouring ones (±30 s of clock drift), of a step later than `afterStep` (the
 * last one accepted, so that a code works once): the matched time step, or undefined when the code is not valid.
 */
export async function verifyTotp(secret: string, code: string, afterStep?: number | null): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = await verify({ secret, token: code, epochTolerance: 30, afterTimeStep: afterStep ?? undefined });
    return result.valid && "timeStep" in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}
