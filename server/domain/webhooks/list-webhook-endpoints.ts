import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { toWebhookEndpointDto } from "./webhook-endpoint-dto.ts";

type Page = components["schemas"]["WebhookEndpointList"];

/** The caller's endpoints, newest first (createdAt, then id); the cursor is an endpoint of the same organization and
 * environment, so a page can never reach into another tenant's list. */
export async function listWebhookEndpoints(
  db: Queryable,
  options: { auth: AuthContext; limit: number; startingAfter?: string },
): Promise<Page> {
  const { auth, limit, startingAfter } = options;
  let query = db
    .selectFrom("WebhookEndpoint")
    .selectAll()
    .where("organizationId", "=", auth.organizationId)
    .where("environment", "=", auth.environment);
  if (startingAfter !== undefined) {
    const cursor = await query.clearSelect().select(["createdAt", "id"]).where("id", "=", startingAfter).executeTakeFirst();
    if (!cursor) throw validationError("/query/startingAfter", "is not an endpoint of this organization and environment");
    query = query.where((eb) => eb(eb.refTuple("createdAt", "id"), "<", eb.tuple(cursor.createdAt, cursor.id)));
  }
  const rows = await query
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const now = new Date();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { data: page.map((row) => toWebhookEndpointDto(row, now)), hasMore, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
}
