// At start: does WEBHOOK_SECRETS_KEY (or, while it is rotated, WEBHOOK_SECRETS_KEY_PREVIOUS) open the endpoint secrets
// already stored? A start with another key (a development data folder reused, a key mistyped in one replica) would
// otherwise run and fail every delivery with "authentication failed"; refusing the start names the problem once.
// One secret is tried — the newest endpoint's, sealed under the key in use most recently — which is one row read.
import type { Queryable } from "../../db/kysely.ts";
import { openSecretWithAny } from "../../lib/webhooks/secret-box.ts";

/** Undefined when the keys fit (or nothing is stored yet); otherwise the endpoint whose secret neither key opens. */
export async function findUnopenableWebhookSecret(db: Queryable, keys: Buffer[]): Promise<{ endpointId: string } | undefined> {
  const newest = await db
    .selectFrom("WebhookEndpoint")
    .select(["id", "secretSealed"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!newest) return undefined;
  try {
    openSecretWithAny(newest.secretSealed, keys);
    return undefined;
  } catch {
    return { endpointId: newest.id };
  }
}

/** The one line a refused start prints: what is wrong and the two ways out (the right key, or a rotation). */
export function describeUnopenableWebhookSecret(endpointId: string): string {
  return (
    `WEBHOOK_SECRETS_KEY does not open the webhook secrets already stored (endpoint ${endpointId}): start with the key ` +
    "they were sealed under, or rotate: the new key in WEBHOOK_SECRETS_KEY, the old one in WEBHOOK_SECRETS_KEY_PREVIOUS, " +
    "then npm run reseal:webhook-secrets"
  );
}
