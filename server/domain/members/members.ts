// Listing, reading, re-roling and removing members. The last owner stays: a change that would leave the organization
// without an owner answers 409 LAST_OWNER; the owners are locked (FOR UPDATE) first, so two owners demoting each other
// concurrently cannot both succeed.

import type { Queryable, Tx } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedByOrganization } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { MemberRole } from "../access/roles.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { recordAudit } from "./audit-log.ts";
import { MEMBER_COLUMNS, type MemberDto, toMemberDto } from "./member-dto.ts";
import { endAllSessions } from "./sessions.ts";

const active = (db: Queryable | Tx, organizationId: string) =>
  db.selectFrom("Member").select(MEMBER_COLUMNS).where(ownedByOrganization(organizationId)).where("removedAt", "is", null);

export async function listMembers(
  db: Queryable,
  { organizationId, window }: { organizationId: string; window: PageWindow },
): Promise<components["schemas"]["MemberList"]> {
  const page = await newestFirstPage(active(db, organizationId), { ...window, unknownCursor: unknownCursor("a member") });
  return { data: page.rows.map(toMemberDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}

export async function getMember(
  db: Queryable,
  { organizationId, memberId }: { organizationId: string; memberId: string },
): Promise<MemberDto> {
  const row = await active(db, organizationId).where("id", "=", memberId).executeTakeFirst();
  if (!row) throw notFound("Member");
  return toMemberDto(row);
}

/** Locks the organization's owners and the member; 404 when the member is not one of the organization's. */
async function lockForChange(uow: UnitOfWork, organizationId: string, memberId: string) {
  const owners = await uow.tx
    .selectFrom("Member")
    .select("id")
    .where(ownedByOrganization(organizationId))
    .where("removedAt", "is", null)
    .where("role", "=", "owner")
    .orderBy("id")
    .forUpdate()
    .execute();
  const member = await active(uow.tx, organizationId).where("id", "=", memberId).forUpdate().executeTakeFirst();
  if (!member) throw notFound("Member");
  return { member, owners: owners.length };
}

interface Actor {
  actorMemberId: string;
  actorEmail: string;
  clientAddress: string;
}

export async function changeRole(
  uow: UnitOfWork,
  { organizationId, memberId, role, actor }: { organizationId: string; memberId: string; role: MemberRole; actor: Actor },
): Promise<MemberDto> {
  const { member, owners } = await lockForChange(uow, organizationId, memberId);
  if (member.role === role) return toMemberDto(member);
  if (member.role === "owner" && owners <= 1) {
    throw new ServiceError("LAST_OWNER", "The organization's last owner cannot lose the owner role; make another member an owner first");
  }
  const updated = await uow.tx
    .updateTable("Member")
    .set({ role, updatedAt: uow.now })
    .where("id", "=", member.id)
    .returning(MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();
  recordAudit(uow, {
    organizationId,
    action: "member.role_changed",
    ...actor,
    target: member.id,
    details: { from: member.role, to: role },
  });
  return toMemberDto(updated);
}

export async function removeMember(
  uow: UnitOfWork,
  { organizationId, memberId, actor }: { organizationId: string; memberId: string; actor: Actor },
): Promise<void> {
  const { member, owners } = await lockForChange(uow, organizationId, memberId);
  if (member.role === "owner" && owners <= 1) {
    throw new ServiceError("LAST_OWNER", "The organization's last owner cannot be removed; make another member an owner first");
  }
  await uow.tx.updateTable("Member").set({ removedAt: uow.now, updatedAt: uow.now }).where("id", "=", member.id).execute();
  await endAllSessions(uow, { memberId: member.id });
  recordAudit(uow, {
    organizationId,
    action: "member.removed",
    ...actor,
    target: member.id,
    details: { email: member.email, role: member.role },
  });
}
