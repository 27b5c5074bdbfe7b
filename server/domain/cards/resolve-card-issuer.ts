import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
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
export async function resolveCardIssuer(options: {
  db: Queryable;
  auth: AuthContext;
  simulate?: CardIssuerFailure;
  now?: Date;
}): Promise<CardIssuer> {
  const resolved = await resolveProvider({ db: options.db, auth: options.auth, category: "card_issuance", sandboxFallback: true });
  const api = resolved.adapter.capabilities?.cards;
  if (!api) {
    throw new ServiceError(
      "CARD_OPERATION_NOT_SUPPORTED",
      `The card issuer "${resolved.adapter.slug}" does not support the card endpoints`,
    );
  }
  return {
    api,
    ctx: { config: resolved.config, now: options.now ?? new Date(), simulate: options.simulate },
    providerSlug: resolved.adapter.slug,
    connectionId: resolved.connectionId,
    simulated: resolved.simulated,
  };
}

/** The issuer's context for a write's call: the intent's id forwarded as idempotency key. */
export const issuerContextFor = (issuer: CardIssuer, intentId: string): CardIssuerContext => ({ ...issuer.ctx, idempotencyKey: intentId });
