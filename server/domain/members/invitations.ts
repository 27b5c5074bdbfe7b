// One-time invitation links (72 h by default): the token is answered once, inside the link, and only its hash is kept.
// Accepting turns the invitation into a member with a name and a password, exactly once (a compare-and-set on the
// unaccepted row, so two concurrent accepts make one member).

import type { Tx } from "../../db/kysely.ts";
import { ownedByOrganization } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { hashToken, newInvitationToken } from "../access/member-tokens.ts";
import { hashPassword, type ScryptParameters } from "../access/passwords.ts";
import type { MemberRole } from "../access/roles.ts";
import { recordAudit } from "./audit-log.ts";
import { type MemberDto, toMemberDto } from "./member-dto.ts";

export interface InvitationInput {
  organizationId: string;
  email: string;
  role: MemberRole;
  /** Who invites: a member (through a session), or null for the operator. */
  invitedBy: { memberId: string; email: string } | null;
  clientAddress: string | null;
  ttlHours: number;
  /** Where the link points (PUBLIC_URL, or the request's origin). */
  origin: string;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

async function isMember(tx: Tx, organizationId: string, email: string): Promise<boolean> {
  const row = await tx
    .selectFrom("Member")
    .select("id")
    .where(ownedByOrganization(organizationId))
    .where("email", "=", email)
    .where("removedAt", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function createInvitation(uow: UnitOfWork, input: InvitationInput): Promise<components["schemas"]["CreatedInvitation"]> {
  const email = normalizeEmail(input.email);
  // The organization is created on first use, like an API key's (the operator invites a new organization's first owner).
  await uow.tx
    .insertInto("Organization")
    .values({ id: input.organizationId })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  if (await isMember(uow.tx, input.organizationId, email)) {
    throw new ServiceError("STATE_CONFLICT", `${email} is already a member of this organization`);
  }
  const token = newInvitationToken();
  const id = newId("inv");
  const expiresAt = new Date(uow.now.getTime() + input.ttlHours * 3_600_000);
  uow.insertLater("MemberInvitation", {
    id,
    organizationId: input.organizationId,
    email,
    role: input.role,
    tokenHash: hashToken(token),
    invitedByMemberId: input.invitedBy?.memberId ?? null,
    expiresAt,
    createdAt: uow.now,
  });
  recordAudit(uow, {
    organizationId: input.organizationId,
    action: "member.invited",
    actorMemberId: input.invitedBy?.memberId ?? null,
    actorEmail: input.invitedBy?.email ?? null,
    clientAddress: input.clientAddress,
    target: id,
    details: { email, role: input.role },
  });
  return {
    invitation: { id, email, role: input.role, expiresAt: expiresAt.toISOString() },
    // The token rides in the fragment: browsers never send it to a server or put it in a Referer.
    invitationUrl: `${input.origin}/console/accept-invitation#token=${token}`,
  };
}

/** Hashes the password (slow, outside any transaction) for `acceptInvitation`. */
export const passwordHashFor = (password: string, params: ScryptParameters) => hashPassword(password, params);

export async function acceptInvitation(
  uow: UnitOfWork,
  input: { token: string; name: string; passwordHash: string; clientAddress: string },
): Promise<MemberDto> {
  const invitation = await uow.tx
    .updateTable("MemberInvitation")
    .set({ acceptedAt: uow.now })
    .where("tokenHash", "=", hashToken(input.token))
    .where("acceptedAt", "is", null)
    .where("expiresAt", ">", uow.now)
    .returning(["id", "organizationId", "email", "role"])
    .executeTakeFirst();
  if (!invitation) throw new ServiceError("NOT_FOUND", "This invitation link is unknown, already used or expired");
  if (await isMember(uow.tx, invitation.organizationId, invitation.email)) {
    throw new ServiceError("STATE_CONFLICT", `${invitation.email} is already a member of this organization`);
  }
  const row = {
    id: newId("mem"),
    organizationId: invitation.organizationId,
    email: invitation.email,
    name: input.name.trim() || invitation.email,
    role: invitation.role,
    passwordHash: input.passwordHash,
    totpSecretSealed: null,
    createdAt: uow.now,
    updatedAt: uow.now,
  };
  // A member removed earlier comes back through a new invitation: the unique (organization, email) row is reused.
  const member = await uow.tx
    .insertInto("Member")
    .values(row)
    .onConflict((oc) =>
      oc.columns(["organizationId", "email"]).doUpdateSet({
        name: row.name,
        role: row.role,
        passwordHash: row.passwordHash,
        totpSecretSealed: null,
        totpPendingSealed: null,
        recoveryCodeHashes: [],
        createdAt: uow.now,
        updatedAt: uow.now,
        removedAt: null,
      }),
    )
    .returning(["id", "email", "name", "role", "totpSecretSealed", "createdAt", "updatedAt"])
    .executeTakeFirstOrThrow();
  recordAudit(uow, {
    organizationId: invitation.organizationId,
    action: "member.joined",
    actorMemberId: member.id,
    actorEmail: member.email,
    clientAddress: input.clientAddress,
    target: invitation.id,
    details: { role: member.role },
  });
  return toMemberDto(member);
}
