import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { notFound } from "../../errors/service-error.ts";
import { type IssuanceRequestDto, joinedToDto, selectIssuanceRequests } from "./issuance-request-dto.ts";

export async function getIssuanceRequest(
  db: Queryable,
  { auth, issuanceRequestId }: { auth: AuthContext; issuanceRequestId: string },
): Promise<IssuanceRequestDto> {
  const row = await selectIssuanceRequests(db, auth).where("ir.id", "=", issuanceRequestId).executeTakeFirst();
  const dto = row && joinedToDto(row);
  // An issuer is never deleted: a request without one would be corrupt data, as unreadable as a missing request.
  if (!dto) throw notFound("Issuance request");
  return dto;
}
