// WEBHOOK_SECRETS_KEY: required in production; in a sandbox deployment generated once and kept in the data folder (like
// the admin token), so sealed endpoint secrets survive a restart. Losing the key makes every stored secret unreadable.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "./config.ts";
import { parseSecretsKey } from "./lib/webhooks/secret-box.ts";

export function resolveWebhookSecretsKey(config: Config, dataDir: string): { key: string; generated: boolean } {
  if (config.webhooks.secretsKey) {
    parseSecretsKey(config.webhooks.secretsKey); // fail at start, not at the first endpoint
    return { key: config.webhooks.secretsKey, generated: false };
  }
  if (config.nodeEnv === "production") throw new Error("WEBHOOK_SECRETS_KEY must be set when NODE_ENV=production");
  const file = path.join(dataDir, "webhook-secrets-key");
  if (existsSync(file)) {
    const key = readFileSync(file, "utf8").trim();
    parseSecretsKey(key);
    return { key, generated: false };
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString("base64");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, generated: true };
}
