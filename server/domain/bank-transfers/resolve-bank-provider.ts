import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { BankTransferApi } from "../../providers/capabilities/bank-transfers.ts";
import { resolveProvider } from "../../providers/resolve-provider.ts";

export interface ResolvedBankProvider {
  api: BankTransferApi;
  config: Record<string, unknown>;
  slug: string;
  connectionId: string | null;
  simulated: boolean;
}

/** Bank transfers are Sandbox only: simulated — the simulator serves sandbox keys when nothing is connected;
 * production needs a reviewed bank_transfer connection (else 424 PROVIDER_NOT_CONNECTED). */
export async function resolveBankProvider(db: Queryable, auth: AuthContext): Promise<ResolvedBankProvider> {
  const resolved = await resolveProvider({ db, auth, category: "bank_transfer", sandboxFallback: true });
  const api = resolved.adapter.capabilities?.bankTransfers;
  if (!api) {
    throw new ServiceError("SERVER_MISCONFIGURED", `Provider "${resolved.adapter.slug}" does not implement bank transfers`);
  }
  return { api, config: resolved.config, slug: resolved.adapter.slug, connectionId: resolved.connectionId, simulated: resolved.simulated };
}
