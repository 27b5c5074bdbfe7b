import type { AuthContext } from "../../context.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { notFound } from "../../errors/service-error.ts";

/** Deletes the endpoint; its deliveries and their attempts go with it (ON DELETE CASCADE). Events stay. */
export async function deleteWebhookEndpoint(uow: UnitOfWork, options: { auth: AuthContext; endpointId: string }): Promise<void> {
  const { auth, endpointId } = options;
  const deleted = await uow.tx.deleteFrom("WebhookEndpoint").where("id", "=", endpointId).where(ownedBy(auth)).executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw notFound("Webhook endpoint");
}
