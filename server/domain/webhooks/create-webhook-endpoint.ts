import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { generateWebhookSecret, sealSecret } from "../../lib/webhooks/secret-box.ts";
import { toWebhookEndpointDto, type WebhookEndpointWithSecretDto, withSecret } from "./webhook-endpoint-dto.ts";

type CreateRequest = components["schemas"]["CreateWebhookEndpointRequest"];

/** Registers an endpoint (the URL was checked by checkWebhookUrl before the work's first write) and answers its secret once;
 * only the sealed secret is stored. */
export async function createWebhookEndpoint(
  uow: UnitOfWork,
  options: { auth: AuthContext; request: CreateRequest; secretsKey: Buffer },
): Promise<WebhookEndpointWithSecretDto> {
  const { auth, request, secretsKey } = options;
  const secret = generateWebhookSecret();
  const row = {
    id: newId("we"),
    organizationId: auth.organizationId,
    environment: auth.environment,
    url: request.url,
    description: request.description ?? null,
    enabledEvents: [...request.enabledEvents],
    status: "enabled",
    disabledReason: null,
    secretSealed: sealSecret(secret, secretsKey),
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    createdAt: uow.now,
    updatedAt: uow.now,
  };
  // Nothing in this request reads it back: it rides the unit of work's closing statement.
  uow.insertLater("WebhookEndpoint", row);
  return withSecret(toWebhookEndpointDto(row, uow.now), secret);
}
