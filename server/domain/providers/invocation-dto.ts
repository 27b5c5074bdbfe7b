import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";

export type InvocationDto = components["schemas"]["ProviderInvocation"];
export type ScreeningDto = components["schemas"]["Screening"];

export function toInvocationDto(row: Selectable<DB["ProviderInvocation"]>, screening: ScreeningDto): InvocationDto {
  return {
    invocationId: row.id,
    providerSlug: row.providerSlug,
    category: row.category as InvocationDto["category"],
    operation: row.operation,
    status: row.status as InvocationDto["status"],
    output: row.output ?? null,
    simulated: row.simulated,
    selectionReceiptId: row.selectionReceiptId,
    approvalRequestId: row.approvalRequestId,
    screening,
    createdAt: row.createdAt.toISOString(),
  };
}
