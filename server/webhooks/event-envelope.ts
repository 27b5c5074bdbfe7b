// The body of a webhook: the stored event exactly as GET /api/v2/agent/events/{id} returns it.
import { toEventDto } from "../domain/webhooks/event-dto.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";

export function eventEnvelopeJson(event: ClaimedDelivery["event"]): string {
  return JSON.stringify(toEventDto(event));
}
