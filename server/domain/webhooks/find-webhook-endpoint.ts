import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { notFound } from "../../errors/service-error.ts";
import type { WebhookEndpointRow } from "./webhook-endpoint-dto.ts";

/** An endpoint of the caller's organization and environment, else 404 (another tenant's id is indistinguishable from
 * an unknown one). `forUpdate` locks the row for a read-modify-write. */
export async function findWebhookEndpoint(
  db: Queryable,
  auth: AuthContext,
  endpointId: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRow> {
  let query = db.selectFrom("WebhookEndpoint").selectAll().where("id", "=", endpointId).where(ownedBy(auth));
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound("Webhook endpoint");
  return row;
}
