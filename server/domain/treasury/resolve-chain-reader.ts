// Which chain reader serves a chain for the key: the newest reviewed chain_read connection whose adapter supports the
// chain; else, for sandbox keys, the sandbox chain reader for the `sandbox` chain. No reader at all in production →
// 424 PROVIDER_NOT_CONNECTED; readers exist but none supports the chain → 400 UNSUPPORTED_CHAIN.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { ChainReaderApi } from "../../providers/capabilities/treasury.ts";
import { findAdapter } from "../../providers/registry.ts";
import { chainReadSimulator } from "../../providers/simulators/chain-read-simulator.ts";
import { connectionConfig } from "../providers/resolve-provider.ts";

export interface ResolvedChainReader {
  api: ChainReaderApi;
  config: Record<string, unknown>;
  /** `chain_read:<providerSlug>`, `sandbox` for the simulator. */
  label: string;
  simulated: boolean;
}

export const sourceLabel = (category: string, slug: string) => `${category}:${slug === "simulator" ? "sandbox" : slug}`;

export async function resolveChainReader(db: Queryable, auth: AuthContext, chain: string): Promise<ResolvedChainReader> {
  let query = db
    .selectFrom("ProviderConnection")
    .select(["providerSlug", "config"])
    .where(ownedBy(auth))
    .where("category", "=", "chain_read")
    .where("reviewed", "=", true);
  // A simulator never serves production (see domain/providers/resolve-provider.ts).
  if (auth.environment === "production") query = query.where("providerSlug", "<>", "simulator");
  const connections = await query.orderBy("createdAt", "desc").orderBy("id", "desc").execute();
  for (const connection of connections) {
    const adapter = findAdapter("chain_read", connection.providerSlug);
    const api = adapter?.capabilities?.chainReader;
    if (!adapter || !api) {
      throw new ServiceError(
        "SERVER_MISCONFIGURED",
        `The chain_read connection names provider "${connection.providerSlug}", which this server cannot read chains with`,
      );
    }
    const config = connectionConfig(adapter, "chain_read", connection.config);
    if (api.supportsChain(chain, config, auth.environment)) {
      return { api, config, label: sourceLabel("chain_read", adapter.slug), simulated: adapter.simulator };
    }
  }
  const sandbox = chainReadSimulator.capabilities?.chainReader as ChainReaderApi;
  if (auth.environment === "sandbox" && sandbox.supportsChain(chain, {}, auth.environment)) {
    return { api: sandbox, config: {}, label: sourceLabel("chain_read", "simulator"), simulated: true };
  }
  if (auth.environment === "production" && connections.length === 0) {
    throw new ServiceError("PROVIDER_NOT_CONNECTED", "No reviewed chain_read provider connection serves this organization in production");
  }
  throw new ServiceError("UNSUPPORTED_CHAIN", `No chain reader of this organization supports ${chain} in ${auth.environment}`, {
    extensions: { chain },
  });
}
