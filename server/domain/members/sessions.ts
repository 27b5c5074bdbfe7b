// Signing in and out. A wrong email and a wrong password answer the same 401 after the same work (an unknown email is
// checked against a dummy hash), and both spend the same throttle, so neither the answer nor its timing tells whether
// an email is a member. The cookie holds a random secret; the row holds its hash.

import type { PeopleConfig } from "../../config.ts";
import type { SessionAuth } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { hashToken, newSessionToken } from "../access/member-tokens.ts";
import { dummyPasswordHash, type ScryptParameters, verifyPassword } from "../access/passwords.ts";
import { recordAudit, recordAuditNow } from "./audit-log.ts";
import { MEMBER_COLUMNS, type MemberRow, toMemberDto } from "./member-dto.ts";

type CurrentSession = components["schemas"]["CurrentSession"];

export const invalidCredentials = () => new ServiceError("INVALID_CREDENTIALS", "The email or password is wrong");

/** The member a sign-in names, when the password is right; null otherwise (whichever of the two was wrong). Several
 * organizations may know one email: the first whose password matches is signed in. */
export async function checkCredentials(
  db: Queryable,
  { input, scrypt }: { input: { email: string; password: string }; scrypt: ScryptParameters },
): Promise<Pick<MemberRow, (typeof MEMBER_COLUMNS)[number] | "organizationId"> | null> {
  const email = input.email.trim().toLowerCase();
  const candidates = await db
    .selectFrom("Member")
    .select([...MEMBER_COLUMNS, "organizationId", "passwordHash"])
    .where("email", "=", email)
    .where("removedAt", "is", null)
    .orderBy("createdAt")
    .execute();
  if (candidates.length === 0) {
    await verifyPassword(input.password, await dummyPasswordHash(scrypt));
    return null;
  }
  for (const candidate of candidates) {
    if (await verifyPassword(input.password, candidate.passwordHash)) {
      const { passwordHash: _secret, ...member } = candidate;
      return member;
    }
  }
  return null;
}

/** A failed sign-in, in the audit log of every organization the email belongs to (none for an unknown email). */
export async function auditFailedSignIn(db: Queryable, { email, clientAddress }: { email: string; clientAddress: string }): Promise<void> {
  const normalized = email.trim().toLowerCase();
  const rows = await db
    .selectFrom("Member")
    .select(["id", "organizationId"])
    .where("email", "=", normalized)
    .where("removedAt", "is", null)
    .execute();
  for (const row of rows) {
    await recordAuditNow(db, {
      organizationId: row.organizationId,
      action: "session.failed",
      actorMemberId: row.id,
      actorEmail: normalized,
      clientAddress,
      target: null,
    });
  }
}

export function openSession(
  uow: UnitOfWork,
  {
    member,
    config,
    clientAddress,
  }: { member: Pick<MemberRow, (typeof MEMBER_COLUMNS)[number] | "organizationId">; config: PeopleConfig; clientAddress: string },
): { token: string; answer: CurrentSession } {
  const token = newSessionToken();
  const id = newId("ses");
  const expiresAt = new Date(uow.now.getTime() + config.sessionAbsoluteHours * 3_600_000);
  uow.insertLater("MemberSession", {
    id,
    memberId: member.id,
    organizationId: member.organizationId,
    tokenHash: hashToken(token),
    secondFactorVerified: false,
    createdAt: uow.now,
    lastSeenAt: uow.now,
    expiresAt,
  });
  recordAudit(uow, {
    organizationId: member.organizationId,
    action: "session.created",
    actorMemberId: member.id,
    actorEmail: member.email,
    clientAddress,
    target: id,
  });
  const session = {
    id,
    memberId: member.id,
    email: member.email,
    role: member.role as SessionAuth["role"],
    secondFactorVerified: false,
    createdAt: uow.now,
    lastSeenAt: uow.now,
    expiresAt,
  };
  return {
    token,
    answer: { session: sessionDto(session, config), member: toMemberDto(member), organization: { id: member.organizationId } },
  };
}

export function sessionDto(session: SessionAuth, config: PeopleConfig): CurrentSession["session"] {
  const idle = new Date(Math.min(session.lastSeenAt.getTime() + config.sessionIdleMinutes * 60_000, session.expiresAt.getTime()));
  return {
    id: session.id,
    expiresAt: session.expiresAt.toISOString(),
    idleExpiresAt: idle.toISOString(),
    secondFactorVerified: session.secondFactorVerified,
  };
}

export async function currentSession(
  db: Queryable,
  { session, organizationId, config }: { session: SessionAuth; organizationId: string; config: PeopleConfig },
): Promise<CurrentSession> {
  const member = await db.selectFrom("Member").select(MEMBER_COLUMNS).where("id", "=", session.memberId).executeTakeFirstOrThrow();
  // The answer reports the idle clock this request restarts.
  return {
    session: sessionDto({ ...session, lastSeenAt: new Date() }, config),
    member: toMemberDto(member),
    organization: { id: organizationId },
  };
}

export async function endSession(uow: UnitOfWork, { sessionId }: { sessionId: string }): Promise<void> {
  await uow.tx.updateTable("MemberSession").set({ endedAt: uow.now }).where("id", "=", sessionId).where("endedAt", "is", null).execute();
}

/** Every open session of the member ends (sign out everywhere; removing a member). */
export async function endAllSessions(uow: UnitOfWork, { memberId }: { memberId: string }): Promise<void> {
  await uow.tx
    .updateTable("MemberSession")
    .set({ endedAt: uow.now })
    .where("memberId", "=", memberId)
    .where("endedAt", "is", null)
    .execute();
}
