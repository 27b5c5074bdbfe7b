// Members, their sessions, the organization's API keys and the audit log (the session scheme). Thin: check the role,
// call one domain function, answer. Writes run in the request's unit of work, with their audit entry.

import type { Config } from "../config.ts";
import { expiredSessionCookie, sessionCookie } from "../domain/access/member-tokens.ts";
import { canManageApiKeys, canManageMembers, canReadAuditLog } from "../domain/access/roles.ts";
import { pageWindow } from "../domain/lists/page-window.ts";
import { listAuditLog } from "../domain/members/audit-log.ts";
import { acceptInvitation, createInvitation, passwordHashFor } from "../domain/members/invitations.ts";
import { auditActor, requireRole, sessionOf } from "../domain/members/member-access.ts";
import { changeRole, getMember, listMembers, removeMember } from "../domain/members/members.ts";
import { createOrgApiKey, getOrgApiKey, listOrgApiKeys, revokeOrgApiKey } from "../domain/members/org-api-keys.ts";
import {
  beginTotpEnrollment,
  confirmTotpEnrollment,
  disableTotp,
  type SealingKeys,
  verifySecondFactor,
} from "../domain/members/second-factor.ts";
import {
  auditFailedSignIn,
  checkCredentials,
  currentSession,
  endAllSessions,
  endSession,
  invalidCredentials,
  openSession,
} from "../domain/members/sessions.ts";
import { webhookSecretsKey } from "../domain/webhooks/secrets-key.ts";
import { parseSecretsKey } from "../lib/webhooks/secret-box.ts";
import { type RequestFacts, type Routes, route } from "./route.ts";

/** TOTP secrets are sealed like webhook signing secrets (WEBHOOK_SECRETS_KEY, and its previous key while rotating). */
function sealingKeys(config: Config): SealingKeys {
  const current = webhookSecretsKey(config.webhooks);
  const previous = config.webhooks.previousSecretsKey ? [parseSecretsKey(config.webhooks.previousSecretsKey)] : [];
  return { current, all: [current, ...previous] };
}

const cookieSecure = (request: RequestFacts) => request.secure || request.loopback;

export const memberRoutes: Routes = [
  route("createSession", async ({ body, request, deps, respond }) => {
    const member = await checkCredentials(deps.db.kysely, { input: body, scrypt: deps.config.people.scrypt });
    if (!member) {
      await auditFailedSignIn(deps.db.kysely, { email: body.email, clientAddress: request.clientAddress });
      throw invalidCredentials();
    }
    return respond(async (uow) => {
      const { token, answer } = openSession(uow, { member, config: deps.config.people, clientAddress: request.clientAddress });
      const maxAge = deps.config.people.sessionAbsoluteHours * 3600;
      return { status: 201, body: answer, headers: { "Set-Cookie": sessionCookie(token, maxAge, cookieSecure(request)) } };
    });
  }),
  route("getCurrentSession", async ({ auth, deps }) => ({
    status: 200,
    body: await currentSession(deps.db.kysely, {
      session: sessionOf(auth),
      organizationId: auth.organizationId,
      config: deps.config.people,
    }),
  })),
  route("deleteCurrentSession", ({ auth, request, respond }) =>
    respond(async (uow) => {
      await endSession(uow, { sessionId: sessionOf(auth).id });
      return { status: 204, headers: { "Set-Cookie": expiredSessionCookie(cookieSecure(request)) } };
    }),
  ),
  route("deleteAllSessions", ({ auth, request, respond }) =>
    respond(async (uow) => {
      await endAllSessions(uow, { memberId: sessionOf(auth).memberId });
      return { status: 204, headers: { "Set-Cookie": expiredSessionCookie(cookieSecure(request)) } };
    }),
  ),
  route("verifySessionSecondFactor", ({ auth, body, deps, respond }) => {
    const session = sessionOf(auth);
    return respond(async (uow) => {
      await verifySecondFactor(uow, { session, code: body.code, keys: sealingKeys(deps.config) });
      return {
        status: 200,
        body: await currentSession(uow.tx, {
          session: { ...session, secondFactorVerified: true },
          organizationId: auth.organizationId,
          config: deps.config.people,
        }),
      };
    });
  }),
  route("listMembers", async ({ auth, query, deps }) => ({
    status: 200,
    body: await listMembers(deps.db.kysely, { organizationId: auth.organizationId, window: pageWindow(query) }),
  })),
  route("getMember", async ({ auth, path, deps }) => ({
    status: 200,
    body: await getMember(deps.db.kysely, { organizationId: auth.organizationId, memberId: path.memberId }),
  })),
  route("updateMember", ({ auth, path, body, request, respond }) => {
    const session = requireRole(auth, canManageMembers, "change roles");
    return respond(async (uow) => ({
      status: 200,
      body: await changeRole(uow, {
        organizationId: auth.organizationId,
        memberId: path.memberId,
        role: body.role,
        actor: auditActor(session, request.clientAddress),
      }),
    }));
  }),
  route("deleteMember", ({ auth, path, request, respond }) => {
    const session = requireRole(auth, canManageMembers, "remove members");
    return respond(async (uow) => {
      await removeMember(uow, {
        organizationId: auth.organizationId,
        memberId: path.memberId,
        actor: auditActor(session, request.clientAddress),
      });
      return { status: 204 };
    });
  }),
  route("createMemberInvitation", ({ auth, body, request, deps, respond }) => {
    const session = requireRole(auth, canManageMembers, "invite members");
    return respond(async (uow) => ({
      status: 201,
      body: await createInvitation(uow, {
        organizationId: auth.organizationId,
        email: body.email,
        role: body.role,
        invitedBy: { memberId: session.memberId, email: session.email },
        clientAddress: request.clientAddress,
        ttlHours: deps.config.people.invitationTtlHours,
        origin: request.origin,
      }),
    }));
  }),
  route("acceptMemberInvitation", async ({ body, request, deps, respond }) => {
    const passwordHash = await passwordHashFor(body.password, deps.config.people.scrypt);
    return respond(async (uow) => ({
      status: 201,
      body: await acceptInvitation(uow, { token: body.token, name: body.name, passwordHash, clientAddress: request.clientAddress }),
    }));
  }),
  route("beginTotpEnrollment", ({ auth, deps, respond }) =>
    respond(async (uow) => ({
      status: 200,
      body: await beginTotpEnrollment(uow, { session: sessionOf(auth), keys: sealingKeys(deps.config) }),
    })),
  ),
  route("confirmTotpEnrollment", ({ auth, body, deps, respond }) => {
    const session = sessionOf(auth);
    return respond(async (uow) => ({
      status: 200,
      body: await confirmTotpEnrollment(uow, { session, code: body.code, keys: sealingKeys(deps.config) }),
    }));
  }),
  route("disableTotp", ({ auth, respond }) =>
    respond(async (uow) => {
      await disableTotp(uow, sessionOf(auth));
      return { status: 204 };
    }),
  ),
  route("createApiKey", ({ auth, body, request, respond }) => {
    requireRole(auth, canManageApiKeys, "create API keys");
    return respond(async (uow) => ({
      status: 201,
      body: await createOrgApiKey(uow, { auth, input: body, clientAddress: request.clientAddress }),
    }));
  }),
  route("listApiKeys", async ({ auth, query, deps }) => {
    requireRole(auth, canManageApiKeys, "list API keys");
    return { status: 200, body: await listOrgApiKeys(deps.db.kysely, { organizationId: auth.organizationId, window: pageWindow(query) }) };
  }),
  route("getApiKey", async ({ auth, path, deps }) => {
    requireRole(auth, canManageApiKeys, "read API keys");
    return { status: 200, body: await getOrgApiKey(deps.db.kysely, { organizationId: auth.organizationId, keyId: path.keyId }) };
  }),
  route("revokeApiKey", async ({ auth, path, request, deps }) => {
    requireRole(auth, canManageApiKeys, "revoke API keys");
    const revoked = await revokeOrgApiKey(deps.db.kysely, { auth, keyId: path.keyId, clientAddress: request.clientAddress });
    // Answer once every instance has dropped its copy of the key (the change feed's barrier), as the operator's revoke.
    await deps.db.changes.barrier();
    return { status: 200, body: revoked };
  }),
  route("listAuditLogEntries", async ({ auth, query, deps }) => {
    requireRole(auth, canReadAuditLog, "read the audit log");
    return { status: 200, body: await listAuditLog(deps.db.kysely, { organizationId: auth.organizationId, window: pageWindow(query) }) };
  }),
];
