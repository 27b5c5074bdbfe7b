import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventDto } from "./event-dto.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { toWebhookEndpointDto } from "./webhook-endpoint-dto.ts";

/** Records a `webhook_endpoint.tested` event delivered to this endpoint only (whatever its enabledEvents) and answers
 * it; the worker sends it like any other. A disabled endpoint receives nothing, so the test is refused rather than
 * queued for nobody. */
export async function sendTestEvent(uow: UnitOfWork, options: { auth: AuthContext; endpointId: string }): Promise<EventDto> {
  const endpoint = await findWebhookEndpoint(uow.tx, options.auth, options.endpointId);
  if (endpoint.status !== "enabled") {
    throw new ServiceError(
      "STATE_CONFLICT",
      "The webhook endpoint is disabled; enable it (PATCH enabled: true) before sending a test event",
    );
  }
  const data = toWebhookEndpointDto(endpoint, uow.now);
  const type = "webhook_endpoint.tested";
  const scope = { organizationId: endpoint.organizationId, environment: endpoint.environment };
  // A test event describes no real change: marked simulated, so a receiver's "ignore simulated events" rule holds.
  const { id, createdAt } = emitEvent(uow, { ...scope, type, resourceId: endpoint.id, data, onlyEndpointId: endpoint.id, simulated: true });
  const at = createdAt.toISOString();
  return { id, type, createdAt: at, timestamp: at, ...scope, environment: data.environment, simulated: true, data };
}
