// The event envelope as listed, fetched and POSTed: {id, type, createdAt, timestamp, organizationId, environment,
// simulated?, data}. `timestamp` is the Standard Webhooks payload convention's name for the same instant as createdAt.
// The delivery worker sends exactly this (server/webhooks/event-envelope.ts calls it).
import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";

export type EventRow = Selectable<DB["Event"]>;
export type EventDto = components["schemas"]["Event"];

/** From the stored row (the delivery worker's claim selects the same columns, without resourceId). The row pairs its
 * `type` with the `data` emitted for it (emit-event.ts), which the contract's union (`WebhookEvent`, one branch per
 * type) cannot see in a column of each: hence the one assertion. */
export function toEventDto(row: Omit<EventRow, "resourceId">): EventDto {
  const createdAt = new Date(row.createdAt).toISOString();
  return {
    id: row.id,
    type: row.type,
    createdAt,
    timestamp: createdAt,
    organizationId: row.organizationId,
    environment: row.environment,
    ...(row.simulated === null ? {} : { simulated: row.simulated }),
    data: typeof row.data === "string" ? JSON.parse(row.data) : row.data,
  } as EventDto;
}
