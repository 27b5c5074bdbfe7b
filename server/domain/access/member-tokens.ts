// The secrets people hold: session cookies (`cps_…`), invitation tokens (`cpi_…`) and recovery codes. Only their
// SHA-256 hashes are stored (like API keys), so a database dump opens no session and accepts no invitation.
import { createHash } from "node:crypto";
import { randomBase62 } from "../../lib/ids.ts";

export const SESSION_COOKIE = "__Host-cp_session";

export const newSessionToken = () => `cps_${randomBase62(43)}`;
export const newInvitationToken = () => `cpi_${randomBase62(43)}`;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Ten recovery codes like `7fk2-9qd3-x8mw`: ~71 bits each, typed by hand once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const raw = randomBase62(12).toLowerCase();
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
  });
}

/** A recovery code as typed: case and surrounding spaces do not matter. */
export const hashRecoveryCode = (code: string) => hashToken(code.trim().toLowerCase());

/** The session cookie's value from a Cookie header, if any. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

export const isWellFormedSessionToken = (token: string) => /^cps_[0-9A-Za-z]{43}$/.test(token);

/** `Set-Cookie` for a session: HttpOnly, SameSite=Strict, Path=/ (the `__Host-` prefix requires it), Secure over https
 * and on loopback (browsers treat http://localhost as secure, and refuse a `__Host-` cookie without Secure). */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
    `Max-Age=${maxAgeSeconds}`,
  ].join("; ");
}

export const expiredSessionCookie = (secure: boolean) => sessionCookie("", 0, secure);
