import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { toWebhookEndpointDto } from "./webhook-endpoint-dto.ts";

type Page = components["schemas"]["WebhookEndpointList"];

/** The caller's endpoints, newest first (createdAt, then id); the cursor is an endpoint of the same organization and
 * environment, so a page can never reach into another tenant's list. */
export async function listWebhookEndpoints(
  db: Queryable,
  options: { auth: AuthContext; limit: number; startingAfter?: string },
): Promise<Page> {
  const { auth, limit, startingAfter } = options;
  const scoped = db.selectFrom("WebhookEndpoint").selectAll().where(ownedBy(auth));
  const page = await newestFirstPage(scoped, {
    limit,
    startingAfter,
    unknownCursor: unknownCursor("a webhook endpoint"),
  });
  const now = new Date();
  return { data: page.rows.map((row) => toWebhookEndpointDto(row, now)), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
