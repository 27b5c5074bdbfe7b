// The body of a webhook: the stored event as GET /api/v2/agent/events/{id} returns it — {id, type, createdAt,
// organizationId, environment, simulated?, data}. `simulated` appears only where the resource has that notion.
import type { ClaimedDelivery } from "./claim-deliveries.ts";

export function eventEnvelopeJson(event: ClaimedDelivery["event"]): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    organizationId: event.organizationId,
    environment: event.environment,
    ...(event.simulated === null ? {} : { simulated: event.simulated }),
    data: event.data,
  });
}
