import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import { type IssuanceRequestDto, toIssuanceRequestDto } from "./issuance-request-dto.ts";

export async function getIssuanceRequest(prisma: Db, auth: AuthContext, issuanceRequestId: string): Promise<IssuanceRequestDto> {
  const row = await prisma.issuanceRequest.findFirst({
    where: { id: issuanceRequestId, organizationId: auth.organizationId, environment: auth.environment },
  });
  if (!row) throw notFound("Issuance request");
  const approval = await prisma.approvalRequest.findUniqueOrThrow({ where: { id: row.approvalRequestId } });
  const issuer = await prisma.issuer.findUniqueOrThrow({ where: { id: row.issuerId } });
  return toIssuanceRequestDto(row, approval, issuer);
}
