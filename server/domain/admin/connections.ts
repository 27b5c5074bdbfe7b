import type { Db } from "../../db/open-database.ts";
import { notFound, validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ProviderConnection } from "../../generated/prisma/client.ts";
import { newId } from "../../lib/ids.ts";
import type { ProviderCategory } from "../../providers/provider-adapter.ts";
import { LIVE_ADAPTERS, PROVIDER_ADAPTERS } from "../../providers/registry.ts";
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

type CreateConnection = components["schemas"]["CreateConnectionRequest"];

const SIMULATOR_SLUG = "simulator";

/** The adapters a connection may name: this build's simulator and live adapters of the category. */
function connectableSlugs(category: ProviderCategory): string[] {
  return [...PROVIDER_ADAPTERS, ...LIVE_ADAPTERS].filter((adapter) => adapter.category === category).map((adapter) => adapter.slug);
}

/** 400 naming the valid slugs here, rather than a 500 SERVER_MISCONFIGURED on the first request that resolves it. A
 * simulator never serves production: its results say `simulated: true`, and a production key must get a provider's
 * result or 424 PROVIDER_NOT_CONNECTED, never a simulation. */
function checkProviderSlug(input: CreateConnection): void {
  const valid = connectableSlugs(input.category as ProviderCategory);
  if (input.environment === "production" && input.providerSlug === SIMULATOR_SLUG) {
    const live = valid.filter((slug) => slug !== SIMULATOR_SLUG);
    throw validationError(
      "/body/providerSlug",
      `the sandbox simulator cannot be connected for production; ${live.length > 0 ? `live ${input.category} adapters: ${live.join(", ")}` : `this build has no live ${input.category} adapter`}`,
    );
  }
  if (valid.includes(input.providerSlug)) return;
  throw validationError("/body/providerSlug", `names no ${input.category} adapter of this build; valid: ${valid.join(", ")}`);
}

/** Creates the organization on first use (race-free: see ensureOrganization), then the connection. */
export async function createConnection(db: Db, input: CreateConnection): Promise<ConnectionDto> {
  checkProviderSlug(input);
  const [, record] = await db.$transaction([
    ensureOrganization(db, input.organizationId),
    db.providerConnection.create({ data: { id: newId("conn"), ...input, config: (input.config ?? {}) as object } }),
  ]);
  return toDto(record);
}

export async function listConnections(
  db: Db,
  { organizationId }: { organizationId: string },
): Promise<components["schemas"]["ConnectionList"]> {
  const rows = await db.providerConnection.findMany({ where: { organizationId }, orderBy: { createdAt: "desc" } });
  return { count: rows.length, data: rows.map(toDto) };
}

export async function deleteConnection(db: Db, { id }: { id: string }): Promise<void> {
  const { count } = await db.providerConnection.deleteMany({ where: { id } });
  if (count === 0) throw notFound("Connection");
}
