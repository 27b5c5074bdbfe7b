import type { WebhookConfig } from "../../config.ts";
import { parseSecretsKey } from "../../lib/webhooks/secret-box.ts";

let cached: { base64: string; key: Buffer } | undefined;

/** The AES key sealing endpoint secrets (WEBHOOK_SECRETS_KEY, resolved at start by server/webhook-secrets-key.ts). */
export function webhookSecretsKey(config: Pick<WebhookConfig, "secretsKey">): Buffer {
  const base64 = config.secretsKey;
  if (!base64) throw new Error("WEBHOOK_SECRETS_KEY is not configured");
  if (cached?.base64 !== base64) cached = { base64, key: parseSecretsKey(base64) };
  return cached.key;
}
