import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage } from "../../db/newest-first-page.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { readDeliveryAttempts } from "./read-delivery-attempts.ts";
import { toWebhookDeliveryDto } from "./webhook-delivery-dto.ts";

type Page = components["schemas"]["WebhookDeliveryList"];
type DeliveryStatus = components["schemas"]["WebhookDeliveryStatus"];

/** One endpoint's deliveries, newest first (createdAt, then id), each with its attempts. */
export async function listWebhookDeliveries(
  db: Queryable,
  options: { auth: AuthContext; endpointId: string; limit: number; startingAfter?: string; status?: DeliveryStatus },
): Promise<Page> {
  const { auth, limit, startingAfter, status } = options;
  const endpoint = await findWebhookEndpoint(db, auth, options.endpointId);
  const page = await newestFirstPage(db.selectFrom("WebhookDelivery").selectAll().where("endpointId", "=", endpoint.id), {
    limit,
    startingAfter,
    unknownCursor: () => validationError("/query/startingAfter", "is not a delivery of this endpoint"),
    filter: (query) => query.$if(status !== undefined, (q) => q.where("status", "=", status as DeliveryStatus)),
  });
  const attempts = await readDeliveryAttempts(
    db,
    page.rows.map((row) => row.id),
  );
  return {
    data: page.rows.map((row) => toWebhookDeliveryDto(row, attempts.get(row.id) ?? [])),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
  };
}
