import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";

export type WebhookDeliveryRow = Selectable<DB["WebhookDelivery"]>;
export type WebhookDeliveryAttemptRow = Selectable<DB["WebhookDeliveryAttempt"]>;
export type WebhookDeliveryDto = components["schemas"]["WebhookDelivery"];

const iso = (value: Date | string) => new Date(value).toISOString();

/** `attempts`: this delivery's attempts, any order (sorted here, oldest first). */
export function toWebhookDeliveryDto(row: WebhookDeliveryRow, attempts: WebhookDeliveryAttemptRow[]): WebhookDeliveryDto {
  return {
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType as WebhookDeliveryDto["eventType"],
    status: row.status as WebhookDeliveryDto["status"],
    attemptCount: row.attemptCount,
    nextAttemptAt: row.status === "pending" && row.nextAttemptAt ? iso(row.nextAttemptAt) : null,
    createdAt: iso(row.createdAt),
    attempts: [...attempts]
      .sort((a, b) => a.attemptNumber - b.attemptNumber)
      .map((a) => ({
        attemptNumber: a.attemptNumber,
        attemptedAt: iso(a.attemptedAt),
        httpStatus: a.httpStatus,
        durationMs: a.durationMs,
        error: a.error as WebhookDeliveryDto["attempts"][number]["error"],
      })),
  };
}
