// Members as the API shows them: never the password hash, the TOTP secret or the recovery codes.
import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";

export type MemberDto = components["schemas"]["Member"];
export type MemberRow = Selectable<DB["Member"]>;

/** The columns a member's DTO is made of: the secret ones are never selected where a DTO is the goal. */
export const MEMBER_COLUMNS = ["id", "email", "name", "role", "totpSecretSealed", "createdAt", "updatedAt"] as const;

export function toMemberDto(row: Pick<MemberRow, (typeof MEMBER_COLUMNS)[number]>): MemberDto {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as MemberDto["role"],
    secondFactorEnabled: row.totpSecretSealed !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
