// Events and webhook endpoints (v2). Thin: shape the request, call one domain function, answer. A URL is checked (DNS
// included, in production) first thing in the work: after the Idempotency-Key's decision, so a replay answers the stored
// answer whatever DNS says now, and before the work's first write, so no transaction is open while the name resolves
// (the key's read runs before any BEGIN: server/db/lazy-transaction.ts).

import { DEFAULT_PAGE_SIZE, pageWindow } from "../domain/lists/page-window.ts";
import { auditWebhookEndpointChange } from "../domain/members/audit-log.ts";
import { checkWebhookUrl } from "../domain/webhooks/check-webhook-url.ts";
import { createWebhookEndpoint } from "../domain/webhooks/create-webhook-endpoint.ts";
import { deleteWebhookEndpoint } from "../domain/webhooks/delete-webhook-endpoint.ts";
import { getEvent } from "../domain/webhooks/get-event.ts";
import { getWebhookEndpoint } from "../domain/webhooks/get-webhook-endpoint.ts";
import { listEvents } from "../domain/webhooks/list-events.ts";
import { listWebhookDeliveries } from "../domain/webhooks/list-webhook-deliveries.ts";
import { listWebhookEndpoints } from "../domain/webhooks/list-webhook-endpoints.ts";
import { retryWebhookDelivery } from "../domain/webhooks/retry-webhook-delivery.ts";
import { rotateWebhookSecret } from "../domain/webhooks/rotate-webhook-secret.ts";
import { webhookSecretsKey } from "../domain/webhooks/secrets-key.ts";
import { sendTestEvent } from "../domain/webhooks/send-test-event.ts";
import { updateWebhookEndpoint } from "../domain/webhooks/update-webhook-endpoint.ts";
import { type Routes, route } from "./route.ts";

export const webhookRoutes: Routes = [
  route("createWebhookEndpoint", ({ body, auth, request, deps, respond }) => {
    const secretsKey = webhookSecretsKey(deps.config.webhooks);
    return respond(async (uow) => {
      await checkWebhookUrl(auth, body.url, deps.config.webhooks);
      const created = await createWebhookEndpoint(uow, { auth, request: body, secretsKey });
      auditWebhookEndpointChange(uow, { auth, endpointId: created.id, change: "created", clientAddress: request.clientAddress });
      return { status: 201, body: created };
    });
  }),
  route("listWebhookEndpoints", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listWebhookEndpoints(deps.db.kysely, { auth, limit: query.limit ?? DEFAULT_PAGE_SIZE, startingAfter: query.startingAfter }),
  })),
  route("getWebhookEndpoint", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getWebhookEndpoint(deps.db.kysely, { auth, endpointId: path.endpointId }),
  })),
  route("updateWebhookEndpoint", ({ path, body, auth, request, deps, respond }) =>
    respond(async (uow) => {
      await checkWebhookUrl(auth, body.url, deps.config.webhooks);
      const updated = await updateWebhookEndpoint(uow, { auth, endpointId: path.endpointId, request: body });
      auditWebhookEndpointChange(uow, { auth, endpointId: path.endpointId, change: "updated", clientAddress: request.clientAddress });
      return { status: 200, body: updated };
    }),
  ),
  route("deleteWebhookEndpoint", ({ path, auth, request, respond }) =>
    respond(async (uow) => {
      await deleteWebhookEndpoint(uow, { auth, endpointId: path.endpointId });
      auditWebhookEndpointChange(uow, { auth, endpointId: path.endpointId, change: "deleted", clientAddress: request.clientAddress });
      return { status: 204 };
    }),
  ),
  route("rotateWebhookEndpointSecret", ({ path, body, auth, request, deps, respond }) => {
    const secretsKey = webhookSecretsKey(deps.config.webhooks);
    return respond(async (uow) => {
      const rotated = await rotateWebhookSecret(uow, {
        auth,
        endpointId: path.endpointId,
        overlapSeconds: body?.overlapSeconds,
        secretsKey,
      });
      auditWebhookEndpointChange(uow, {
        auth,
        endpointId: path.endpointId,
        change: "secret_rotated",
        clientAddress: request.clientAddress,
      });
      return { status: 200, body: rotated };
    });
  }),
  route("sendTestWebhookEvent", ({ path, auth, respond }) =>
    respond(async (uow) => ({ status: 202, body: await sendTestEvent(uow, { auth, endpointId: path.endpointId }) })),
  ),
  route("listWebhookDeliveries", async ({ path, query, auth, deps }) => ({
    status: 200,
    body: await listWebhookDeliveries(deps.db.kysely, {
      auth,
      endpointId: path.endpointId,
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      startingAfter: query.startingAfter,
      status: query.status,
    }),
  })),
  route("retryWebhookDelivery", ({ path, auth, respond }) =>
    respond(async (uow) => ({
      status: 202,
      body: await retryWebhookDelivery(uow, { auth, endpointId: path.endpointId, deliveryId: path.deliveryId }),
    })),
  ),
  route("listEvents", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listEvents(deps.db.kysely, {
      auth,
      window: pageWindow(query),
      // One `type=` arrives as a string, several as an array (the parameter is repeatable).
      types: query.type === undefined ? undefined : [query.type].flat(),
      resourceId: query.resourceId,
    }),
  })),
  route("getEvent", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getEvent(deps.db.kysely, { auth, eventId: path.eventId }),
  })),
];
