// Lists issuance requests, newest first, filtered by issuer, kind and (derived) status. The status lives on the
// approval request, so the filter joins the two tables.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { type IssuanceStatus, toIssuanceRequestDto } from "./issuance-request-dto.ts";

export interface ListIssuanceRequestsOptions {
  issuerId?: string;
  kind?: "mint" | "burn";
  status?: IssuanceStatus;
  limit: number;
  offset: number;
}

export async function listIssuanceRequests(
  prisma: Db,
  auth: AuthContext,
  options: ListIssuanceRequestsOptions,
): Promise<components["schemas"]["IssuanceRequestList"]> {
  const now = new Date();
  const conditions = [Prisma.sql`ir."organizationId" = ${auth.organizationId}`, Prisma.sql`ir."environment" = ${auth.environment}`];
  if (options.issuerId) conditions.push(Prisma.sql`ir."issuerId" = ${options.issuerId}`);
  if (options.kind) conditions.push(Prisma.sql`ir."kind" = ${options.kind}`);
  switch (options.status) {
    case "pending_approval":
      conditions.push(Prisma.sql`ar."status" = 'pending' AND ar."expiresAt" > ${now}`);
      break;
    case "expired":
      conditions.push(Prisma.sql`ar."status" = 'pending' AND ar."expiresAt" <= ${now}`);
      break;
    case "approved":
    case "rejected":
      conditions.push(Prisma.sql`ar."status" = ${options.status}`);
      break;
  }
  const where = Prisma.join(conditions, " AND ");
  const from = Prisma.sql`FROM "IssuanceRequest" ir JOIN "ApprovalRequest" ar ON ar."id" = ir."approvalRequestId" WHERE ${where}`;
  const [{ total }] = (await prisma.$queryRaw<Array<{ total: number }>>`SELECT COUNT(*)::int AS total ${from}`) as [{ total: number }];
  const page = await prisma.$queryRaw<
    Array<{ id: string }>
  >`SELECT ir."id" ${from} ORDER BY ir."createdAt" DESC, ir."id" DESC LIMIT ${options.limit} OFFSET ${options.offset}`;
  const ids = page.map((r) => r.id);
  const rows = await prisma.issuanceRequest.findMany({ where: { id: { in: ids } } });
  const approvals = await prisma.approvalRequest.findMany({ where: { id: { in: rows.map((r) => r.approvalRequestId) } } });
  const issuers = await prisma.issuer.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.issuerId))] } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const approvalById = new Map(approvals.map((a) => [a.id, a]));
  const issuerById = new Map(issuers.map((i) => [i.id, i]));
  const data = ids.flatMap((id) => {
    const row = byId.get(id);
    const approval = row && approvalById.get(row.approvalRequestId);
    const issuer = row && issuerById.get(row.issuerId);
    return row && approval && issuer ? [toIssuanceRequestDto(row, approval, issuer, now)] : [];
  });
  return { count: Number(total), limit: options.limit, offset: options.offset, data };
}
