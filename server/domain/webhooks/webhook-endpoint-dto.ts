// The endpoint as the API returns it. Never carries a secret, sealed or not: only create and rotate add `secret`
// (WebhookEndpointWithSecret), and they do so explicitly.
import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";

export type WebhookEndpointRow = Selectable<DB["WebhookEndpoint"]>;
export type WebhookEndpointDto = components["schemas"]["WebhookEndpoint"];
export type WebhookEndpointWithSecretDto = components["schemas"]["WebhookEndpointWithSecret"];

export function toWebhookEndpointDto(row: WebhookEndpointRow, now: Date): WebhookEndpointDto {
  const previousExpiresAt = row.previousSecretExpiresAt ? new Date(row.previousSecretExpiresAt) : null;
  return {
    id: row.id,
    organizationId: row.organizationId,
    environment: row.environment as WebhookEndpointDto["environment"],
    url: row.url,
    description: row.description,
    enabledEvents: row.enabledEvents as WebhookEndpointDto["enabledEvents"],
    status: row.status as WebhookEndpointDto["status"],
    disabledReason: row.disabledReason as WebhookEndpointDto["disabledReason"],
    // A rotated-out secret that no longer signs is history, not state: report the overlap only while it runs.
    secretRotation: previousExpiresAt && previousExpiresAt > now ? { previousSecretExpiresAt: previousExpiresAt.toISOString() } : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

export function withSecret(dto: WebhookEndpointDto, secret: string): WebhookEndpointWithSecretDto {
  return { ...dto, secret };
}
