import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { readDeliveryAttempts } from "./read-delivery-attempts.ts";
import { toWebhookDeliveryDto, type WebhookDeliveryDto } from "./webhook-delivery-dto.ts";

/** Makes one delivery pending and due now, whatever its state (resend a failed or succeeded one, hurry a pending one).
 * The attempt is a manual one: it does not use up the next automatic attempt. The automatic attempt it steps in front of
 * (a pending delivery's `nextAttemptAt`) is kept in `resumeAttemptAt` and due again if the manual attempt fails
 * (server/webhooks/record-attempt.ts); a second retry before the attempt ran keeps the first one's. The lease is left
 * alone: an attempt in flight still records its outcome (its lease token matches), which ends the manual retry, and the
 * delivery is then claimed again only if that outcome left it pending. */
export async function retryWebhookDelivery(
  uow: UnitOfWork,
  options: { auth: AuthContext; endpointId: string; deliveryId: string },
): Promise<WebhookDeliveryDto> {
  const endpoint = await findWebhookEndpoint(uow.tx, options.auth, options.endpointId);
  if (endpoint.status !== "enabled") {
    throw new ServiceError(
      "STATE_CONFLICT",
      "The webhook endpoint is disabled; enable it (PATCH enabled: true) before retrying a delivery",
    );
  }
  const delivery = await uow.tx
    .updateTable("WebhookDelivery")
    .set((eb) => ({
      status: "pending",
      nextAttemptAt: uow.now,
      manualRetry: true,
      resumeAttemptAt: eb
        .case()
        .when("manualRetry", "=", true)
        .then(eb.ref("resumeAttemptAt"))
        .when("status", "=", "pending")
        .then(eb.ref("nextAttemptAt"))
        .else(null)
        .end(),
    }))
    .where("id", "=", options.deliveryId)
    .where("endpointId", "=", endpoint.id)
    .returningAll()
    .executeTakeFirst();
  if (!delivery) throw notFound("Webhook delivery");
  const attempts = await readDeliveryAttempts(uow.tx, [delivery.id]);
  return toWebhookDeliveryDto(delivery, attempts.get(delivery.id) ?? []);
}
