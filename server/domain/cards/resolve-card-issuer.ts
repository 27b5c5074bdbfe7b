import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardIssuerApi, CardIssuerContext, CardIssuerFailure } from "../../providers/card-issuer.ts";
import { resolveProvider } from "../../providers/resolve-provider.ts";

export interface CardIssuer {
  api: CardIssuerApi;
  ctx: CardIssuerContext;
  providerSlug: string;
  connectionId: string | null;
  simulated: boolean;
}

/** Every card endpoint starts here: the newest reviewed card_issuance connection, or — card endpoints being "Sandbox
 * only: simulated" — the card issuing simulator for sandbox keys; otherwise 424 PROVIDER_NOT_CONNECTED. */
export async function resolveCardIssuer(options: { prisma: Db; auth: AuthContext; simulate?: CardIssuerFailure }): Promise<CardIssuer> {
  const resolved = await resolveProvider({ prisma: options.prisma, auth: options.auth, category: "card_issuance", sandboxFallback: true });
  const api = resolved.adapter.capabilities?.cards;
  if (!api) {
    throw new ServiceError(
      "CARD_OPERATION_NOT_SUPPORTED",
      `The card issuer "${resolved.adapter.slug}" does not support the card endpoints`,
    );
  }
  return {
    api,
    ctx: { config: resolved.config, now: new Date(), simulate: options.simulate },
    providerSlug: resolved.adapter.slug,
    connectionId: resolved.connectionId,
    simulated: resolved.simulated,
  };
}
