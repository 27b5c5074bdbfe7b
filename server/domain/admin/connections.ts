import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ProviderConnection } from "../../generated/prisma/client.ts";
import { newId } from "../../lib/ids.ts";
import { ensureOrganization } from "./ensure-organization.ts";

type ConnectionDto = components["schemas"]["Connection"];

const toDto = (c: ProviderConnection): ConnectionDto => ({
  id: c.id,
  organizationId: c.organizationId,
  environment: c.environment as ConnectionDto["environment"],
  category: c.category as ConnectionDto["category"],
  providerSlug: c.providerSlug,
  reviewed: c.reviewed,
  config: c.config as Record<string, unknown>,
  createdAt: c.createdAt.toISOString(),
});

/** Creates the organization on first use (race-free: see ensureOrganization), then the connection. */
export async function createConnection(prisma: Db, input: components["schemas"]["CreateConnectionRequest"]): Promise<ConnectionDto> {
  const [, record] = await prisma.$transaction([
    ensureOrganization(prisma, input.organizationId),
    prisma.providerConnection.create({ data: { id: newId("conn"), ...input, config: (input.config ?? {}) as object } }),
  ]);
  return toDto(record);
}

export async function listConnections(prisma: Db, organizationId: string): Promise<components["schemas"]["ConnectionList"]> {
  const rows = await prisma.providerConnection.findMany({ where: { organizationId }, orderBy: { createdAt: "desc" } });
  return { count: rows.length, data: rows.map(toDto) };
}

export async function deleteConnection(prisma: Db, id: string): Promise<void> {
  const { count } = await prisma.providerConnection.deleteMany({ where: { id } });
  if (count === 0) throw notFound("Connection");
}
