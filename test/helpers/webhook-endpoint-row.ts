// A webhook endpoint row written straight to the database, its secret sealed by the caller: for tests of what a start
// does with secrets already stored (the API would seal them under the server's own key).
import type { Queryable } from "../../server/db/kysely.ts";
import { newId } from "../../server/lib/ids.ts";

export async function insertWebhookEndpoint(db: Queryable, secretSealed: string, createdAt = new Date()): Promise<string> {
  const id = newId("we");
  await db
    .insertInto("WebhookEndpoint")
    .values({
      id,
      organizationId: "org_secrets_key",
      environment: "sandbox",
      url: "http://localhost/hook",
      description: null,
      enabledEvents: ["*"],
      status: "enabled",
      disabledReason: null,
      secretSealed,
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
  return id;
}
