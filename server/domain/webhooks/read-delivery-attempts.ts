import type { Queryable } from "../../db/kysely.ts";
import type { WebhookDeliveryAttemptRow } from "./webhook-delivery-dto.ts";

/** The attempts of some deliveries (one statement), grouped by delivery id. */
export async function readDeliveryAttempts(db: Queryable, deliveryIds: string[]): Promise<Map<string, WebhookDeliveryAttemptRow[]>> {
  const byDelivery = new Map<string, WebhookDeliveryAttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db.selectFrom("WebhookDeliveryAttempt").selectAll().where("deliveryId", "in", deliveryIds).execute();
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId) ?? [];
    list.push(row);
    byDelivery.set(row.deliveryId, list);
  }
  return byDelivery;
}
