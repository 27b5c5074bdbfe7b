import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { toWebhookEndpointDto, type WebhookEndpointDto } from "./webhook-endpoint-dto.ts";

type UpdateRequest = components["schemas"]["UpdateWebhookEndpointRequest"];

/** Applies the given fields (a new URL was checked by checkWebhookUrl before the work's first write). `enabled: false` disables
 * as `requested`; `enabled: true` clears any reason, `failing` included. */
export async function updateWebhookEndpoint(
  uow: UnitOfWork,
  options: { auth: AuthContext; endpointId: string; request: UpdateRequest },
): Promise<WebhookEndpointDto> {
  const { auth, endpointId, request } = options;
  const current = await findWebhookEndpoint(uow.tx, auth, endpointId, { forUpdate: true });
  const changes = {
    ...(request.url !== undefined ? { url: request.url } : {}),
    ...(request.description !== undefined ? { description: request.description } : {}),
    ...(request.enabledEvents !== undefined ? { enabledEvents: [...request.enabledEvents] } : {}),
    ...(request.enabled === true ? { status: "enabled", disabledReason: null } : {}),
    // Disabling an endpoint already disabled as failing keeps that reason: the operator's pause does not hide it.
    ...(request.enabled === false && current.status === "enabled" ? { status: "disabled", disabledReason: "requested" } : {}),
    updatedAt: uow.now,
  };
  uow.deferLater((db) => db.updateTable("WebhookEndpoint").set(changes).where("id", "=", current.id));
  return toWebhookEndpointDto({ ...current, ...changes }, uow.now);
}
