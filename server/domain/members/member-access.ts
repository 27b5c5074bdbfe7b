// Who may do what, by role (server/domain/access/roles.ts), as the 403 each operation answers.

import type { AuthContext, SessionAuth } from "../../context.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { MemberRole } from "../access/roles.ts";

/** The session of the request; operations of the session scheme always have one (authentication made sure). */
export function sessionOf(auth: AuthContext): SessionAuth {
  if (!auth.session) throw new ServiceError("UNAUTHORIZED", "Missing, expired or signed-out session");
  return auth.session;
}

export function requireRole(auth: AuthContext, allowed: (role: MemberRole) => boolean, what: string): SessionAuth {
  const session = sessionOf(auth);
  if (!allowed(session.role)) throw new ServiceError("FORBIDDEN", `The ${session.role} role cannot ${what}`);
  return session;
}

/** Who acted, for an audit entry. */
export function auditActor(session: SessionAuth, clientAddress: string) {
  return { actorMemberId: session.memberId, actorEmail: session.email, clientAddress };
}
