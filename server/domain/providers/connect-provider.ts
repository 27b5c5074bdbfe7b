// The provider a domain endpoint calls: the reviewed connection of its category (or, where the category's endpoints are
// "Sandbox only: simulated", the sandbox simulator for sandbox keys), with the category's capability API — or the
// request fails closed (424 PROVIDER_NOT_CONNECTED) before anything is read or written.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { ProviderCapabilities } from "../../providers/capabilities/provider-capabilities.ts";
import { resolveProvider } from "./resolve-provider.ts";

interface CategoryCapability {
  capability: keyof ProviderCapabilities;
  /** Bank transfers and cards are "Sandbox only: simulated"; custody fails closed (its simulator only when connected). */
  sandboxFallback: boolean;
  /** The answer when the connected adapter lacks the capability. */
  missing: (slug: string) => ServiceError;
}

const CATEGORY_CAPABILITY = {
  bank_transfer: {
    capability: "bankTransfers",
    sandboxFallback: true,
    missing: (slug) => new ServiceError("SERVER_MISCONFIGURED", `Provider "${slug}" does not implement bank transfers`),
  },
  custody: {
    capability: "custody",
    sandboxFallback: false,
    missing: (slug) => new ServiceError("SERVER_MISCONFIGURED", `Provider "${slug}" does not implement custody`),
  },
  card_issuance: {
    capability: "cards",
    sandboxFallback: true,
    missing: (slug) => new ServiceError("CARD_OPERATION_NOT_SUPPORTED", `The card issuer "${slug}" does not support the card endpoints`),
  },
} as const satisfies Record<string, CategoryCapability>;

export type ConnectedCategory = keyof typeof CATEGORY_CAPABILITY;
export type CapabilityApi<C extends ConnectedCategory> = ProviderCapabilities[(typeof CATEGORY_CAPABILITY)[C]["capability"]];

export interface ProviderConnection<Api> {
  api: Api;
  /** The connection's config (validated by the adapter's `parseConfig`). */
  config: Record<string, unknown>;
  slug: string;
  /** null when the sandbox simulator serves without a connection. */
  connectionId: string | null;
  simulated: boolean;
  /** The call context every capability takes — the config and the time — with the category's extras (custody: the
   * database; cards: the simulated failure and the intent's id as idempotency key). */
  context<E extends object = object>(extra?: E): { config: Record<string, unknown>; now: Date } & E;
}

/** The columns of a row written through a provider: the adapter and the connection that serve it, and whether simulated. */
export const servedBy = (connection: Pick<ProviderConnection<unknown>, "slug" | "connectionId" | "simulated">) => ({
  provider: connection.slug,
  connectionId: connection.connectionId,
  simulated: connection.simulated,
});

export async function connectProvider<C extends ConnectedCategory>(
  db: Queryable,
  auth: AuthContext,
  category: C,
  /** The time the calls carry (a write's `uow.now`); otherwise the time of each call. */
  options: { now?: Date } = {},
): Promise<ProviderConnection<CapabilityApi<C>>> {
  const rule: CategoryCapability = CATEGORY_CAPABILITY[category];
  const resolved = await resolveProvider({ db, auth, category, sandboxFallback: rule.sandboxFallback });
  const api = resolved.adapter.capabilities?.[rule.capability] as CapabilityApi<C> | undefined;
  if (!api) throw rule.missing(resolved.adapter.slug);
  const config = resolved.config;
  return {
    api,
    config,
    slug: resolved.adapter.slug,
    connectionId: resolved.connectionId,
    simulated: resolved.simulated,
    context: <E extends object>(extra?: E) => ({ config, now: options.now ?? new Date(), ...(extra as E) }),
  };
}
