import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { toWebhookEndpointDto, type WebhookEndpointDto } from "./webhook-endpoint-dto.ts";

export async function getWebhookEndpoint(db: Queryable, options: { auth: AuthContext; endpointId: string }): Promise<WebhookEndpointDto> {
  return toWebhookEndpointDto(await findWebhookEndpoint(db, options.auth, options.endpointId), new Date());
}
