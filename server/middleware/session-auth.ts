// Authentication by a member's session (the `__Host-cp_session` cookie): the CSRF check, then the session row. Sessions
// are read from the database on every request (no cache), so signing out — here or everywhere — ends a session on every
// instance at once. The idle clock moves at most once a minute, off the request path.
import type { Request } from "express";
import type { PeopleConfig } from "../config.ts";
import type { AuthContext, Environment } from "../context.ts";
import type { Queryable } from "../db/kysely.ts";
import { hashToken, isWellFormedSessionToken, SESSION_COOKIE, sessionCookieOf } from "../domain/access/member-tokens.ts";
import { type MemberRole, scopesOfRole } from "../domain/access/roles.ts";
import { ServiceError, validationError } from "../errors/service-error.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const TOUCH_AFTER_MS = 60_000;

/** The request carries a session cookie (whether or not it is valid). */
export const carriesSessionCookie = (req: Request) => sessionCookieOf(req.get("cookie")) !== undefined;

/** The origins a browser request of ours comes from: this request's own, and PUBLIC_URL's. */
function ownOrigins(req: Request, publicUrl: string | undefined): string[] {
  const own = `${req.protocol}://${req.get("host") ?? ""}`;
  return publicUrl ? [own, new URL(publicUrl).origin] : [own];
}

/**
 * CSRF: a state-changing request carried by a session cookie must come from this server's own origin. Browsers send
 * `Sec-Fetch-Site` and `Origin` on such requests; either one from elsewhere (or neither at all) → 403. `strict: false`
 * (sign-in and accepting an invitation, which carry no session yet) refuses only a foreign origin it can see.
 */
export function checkSameOrigin(req: Request, publicUrl: string | undefined, strict: boolean): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  const refuse = () => new ServiceError("CROSS_ORIGIN_REQUEST", "A request carried by a session must come from this server's own origin");
  if (site !== undefined && site !== "same-origin" && site !== "none") throw refuse();
  if (origin !== undefined && !ownOrigins(req, publicUrl).includes(origin)) throw refuse();
  if (strict && site === undefined && origin === undefined) throw refuse();
}

function environmentOf(req: Request): Environment {
  const value = req.get("coinplane-environment");
  if (value === undefined || value === "sandbox" || value === "production") return value ?? "sandbox";
  throw validationError("/headers/coinplane-environment", "must be sandbox or production");
}

const unauthorized = () => new ServiceError("UNAUTHORIZED", "Missing, expired or signed-out session");

export async function authenticateSession(db: Queryable, req: Request, config: PeopleConfig, now = new Date()): Promise<AuthContext> {
  const token = sessionCookieOf(req.get("cookie"));
  if (!token) throw unauthorized();
  checkSameOrigin(req, config.publicUrl, true);
  if (!isWellFormedSessionToken(token)) throw unauthorized();
  const row = await db
    .selectFrom("MemberSession as s")
    .innerJoin("Member as m", "m.id", "s.memberId")
    .select([
      "s.id",
      "s.memberId",
      "s.organizationId",
      "s.secondFactorVerified",
      "s.createdAt",
      "s.lastSeenAt",
      "s.expiresAt",
      "s.endedAt",
      "m.email",
      "m.role",
      "m.removedAt",
    ])
    .where("s.tokenHash", "=", hashToken(token))
    .executeTakeFirst();
  const idleMs = config.sessionIdleMinutes * 60_000;
  if (!row || row.endedAt || row.removedAt || row.expiresAt <= now || row.lastSeenAt.getTime() + idleMs <= now.getTime()) {
    throw unauthorized();
  }
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_AFTER_MS) touch(db, row.id, now, req);
  const role = row.role as MemberRole;
  return {
    apiKeyId: row.memberId,
    organizationId: row.organizationId,
    environment: environmentOf(req),
    scopes: scopesOfRole(role),
    actor: row.email,
    memberId: row.memberId,
    session: {
      id: row.id,
      memberId: row.memberId,
      email: row.email,
      role,
      secondFactorVerified: row.secondFactorVerified,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      expiresAt: row.expiresAt,
    },
  };
}

/** Moves the idle clock, after the answer: a lost update only shortens the session by under a minute. */
function touch(db: Queryable, sessionId: string, now: Date, req: Request): void {
  setImmediate(() => {
    db.updateTable("MemberSession")
      .set({ lastSeenAt: now })
      .where("id", "=", sessionId)
      .where("lastSeenAt", "<", now)
      .execute()
      .catch((error: unknown) => req.ctx.log?.warn({ err: (error as Error).message }, "session idle clock not moved"));
  });
}

export { SESSION_COOKIE };
