// WEBHOOK_SECRETS_KEY: required in production; in a sandbox deployment generated once and kept in the data folder (like
// the admin token), so sealed endpoint secrets survive a restart. Losing the key makes every stored secret unreadable.
import { randomBytes } from "node:crypto";
import type { Config } from "./config.ts";
import { keepSecretFile } from "./lib/secret-file.ts";
import { parseSecretsKey } from "./lib/webhooks/secret-box.ts";

export function resolveWebhookSecretsKey(config: Config, dataDir: string): { key: string; generated: boolean } {
  if (config.webhooks.secretsKey) {
    parseSecretsKey(config.webhooks.secretsKey); // fail at start, not at the first endpoint
    if (config.webhooks.previousSecretsKey) parseSecretsKey(config.webhooks.previousSecretsKey);
    return { key: config.webhooks.secretsKey, generated: false };
  }
  if (config.nodeEnv === "production") throw new Error("WEBHOOK_SECRETS_KEY must be set when NODE_ENV=production");
  const kept = keepSecretFile(dataDir, "webhook-secrets-key", () => randomBytes(32).toString("base64"));
  parseSecretsKey(kept.value);
  return { key: kept.value, generated: kept.created };
}
