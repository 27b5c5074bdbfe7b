// The organization's connected reserve source (a reviewed token_issuance connection), if any. Never a fallback: values
// only a connected source can supply are null without one.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { ReserveReport } from "../../providers/capabilities/treasury.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type ResolvedProvider, resolveProvider } from "../providers/resolve-provider.ts";
import { sourceLabel } from "./resolve-chain-reader.ts";

export interface SourcedReport {
  report: ReserveReport;
  label: string;
  simulated: boolean;
}

/** null when no reviewed token_issuance connection with a reserve-source adapter serves the organization. */
export async function readReserveSource(
  db: Queryable,
  auth: AuthContext,
  chain: string,
  contractAddress: string,
): Promise<SourcedReport | null> {
  let resolved: ResolvedProvider;
  try {
    resolved = await resolveProvider({ db, auth, category: "token_issuance", sandboxFallback: false });
  } catch (error) {
    if (error instanceof ServiceError && error.code === "PROVIDER_NOT_CONNECTED") return null;
    throw error;
  }
  const api = resolved.adapter.capabilities?.reserveSource;
  if (!api) return null;
  const report = await callProvider({ provider: "reserve_source" }, () => api.report({ config: resolved.config, chain, contractAddress }));
  return { report, label: sourceLabel("token_issuance", resolved.adapter.slug), simulated: resolved.adapter.simulator };
}
