import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
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
  let query = db.selectFrom("WebhookDelivery").selectAll().where("endpointId", "=", endpoint.id);
  if (startingAfter !== undefined) {
    const cursor = await query.clearSelect().select(["createdAt", "id"]).where("id", "=", startingAfter).executeTakeFirst();
    if (!cursor) throw validationError("/query/startingAfter", "is not a delivery of this endpoint");
    query = query.where((eb) => eb(eb.refTuple("createdAt", "id"), "<", eb.tuple(cursor.createdAt, cursor.id)));
  }
  if (status !== undefined) query = query.where("status", "=", status);
  const rows = await query
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const attempts = await readDeliveryAttempts(
    db,
    page.map((row) => row.id),
  );
  return {
    data: page.map((row) => toWebhookDeliveryDto(row, attempts.get(row.id) ?? [])),
    hasMore,
    nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null,
  };
}
