import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { generateWebhookSecret, sealSecret } from "../../lib/webhooks/secret-box.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { toWebhookEndpointDto, type WebhookEndpointWithSecretDto, withSecret } from "./webhook-endpoint-dto.ts";

export const DEFAULT_OVERLAP_SECONDS = 86_400;

/** A new current secret, answered once. The old current secret keeps signing (second signature) for `overlapSeconds`;
 * a secret rotated out earlier is dropped, so at most two ever sign. The row is locked: two concurrent rotations
 * serialise, and the second keeps the first's new secret as its previous one. */
export async function rotateWebhookSecret(
  uow: UnitOfWork,
  options: { auth: AuthContext; endpointId: string; overlapSeconds?: number; secretsKey: Buffer },
): Promise<WebhookEndpointWithSecretDto> {
  const { auth, endpointId, secretsKey } = options;
  const overlapSeconds = options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS;
  const current = await findWebhookEndpoint(uow.tx, auth, endpointId, { forUpdate: true });
  const secret = generateWebhookSecret();
  const changes = {
    secretSealed: sealSecret(secret, secretsKey),
    previousSecretSealed: overlapSeconds > 0 ? current.secretSealed : null,
    previousSecretExpiresAt: overlapSeconds > 0 ? new Date(uow.now.getTime() + overlapSeconds * 1000) : null,
    updatedAt: uow.now,
  };
  uow.deferLater((db) => db.updateTable("WebhookEndpoint").set(changes).where("id", "=", current.id));
  return withSecret(toWebhookEndpointDto({ ...current, ...changes }, uow.now), secret);
}
