// The organization's connected reserve source (a reviewed token_issuance connection), if any. Never a fallback: values
// only a connected source can supply are null without one.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { resolveProvider } from "../../providers/resolve-provider.ts";
import { type ReserveReport, ReserveSourceUnavailable } from "../../providers/treasury-capabilities.ts";
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
  let resolved: Awaited<ReturnType<typeof resolveProvider>>;
  try {
    resolved = await resolveProvider({ db, auth, category: "token_issuance", sandboxFallback: false });
  } catch (error) {
    if (error instanceof ServiceError && error.code === "PROVIDER_NOT_CONNECTED") return null;
    throw error;
  }
  const api = resolved.adapter.capabilities?.reserveSource;
  if (!api) return null;
  try {
    const report = await api.report({ config: resolved.config, chain, contractAddress });
    return { report, label: sourceLabel("token_issuance", resolved.adapter.slug), simulated: resolved.adapter.simulator };
  } catch (error) {
    if (error instanceof ReserveSourceUnavailable) {
      throw new ServiceError("SOURCE_NOT_AVAILABLE", `The reserve source could not be reached: ${error.message}`, { retryAfterSeconds: 5 });
    }
    throw error;
  }
}
