// `npm run reseal:webhook-secrets`: the last step of rotating WEBHOOK_SECRETS_KEY without downtime (README
// "Operations"). Run with the new WEBHOOK_SECRETS_KEY and the old one in WEBHOOK_SECRETS_KEY_PREVIOUS, on the same
// DATABASE_URL as the instances; afterwards WEBHOOK_SECRETS_KEY_PREVIOUS can go. Compiled: node dist/scripts/reseal-webhook-secrets.js
import { loadConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/open-database.ts";
import { resealWebhookSecrets } from "../server/domain/webhooks/reseal-webhook-secrets.ts";
import { parseSecretsKey } from "../server/lib/webhooks/secret-box.ts";

const config = loadConfig();
const { secretsKey, previousSecretsKey } = config.webhooks;
if (!secretsKey || !previousSecretsKey) {
  console.error("reseal: set WEBHOOK_SECRETS_KEY (the new key) and WEBHOOK_SECRETS_KEY_PREVIOUS (the old one)");
  process.exit(2);
}
const db = await openDatabase({ url: config.databaseUrl, poolSize: 1, migrate: false, requireMigrated: true });
try {
  const result = await resealWebhookSecrets(db.kysely, {
    current: parseSecretsKey(secretsKey),
    previous: parseSecretsKey(previousSecretsKey),
  });
  console.log(`reseal: ${result.resealed} endpoint(s) resealed under WEBHOOK_SECRETS_KEY`);
  if (result.unreadable > 0) {
    console.error(`reseal: ${result.unreadable} endpoint(s) hold a secret neither key opens; rotate their secrets (POST …/rotate-secret)`);
    process.exitCode = 1;
  }
} finally {
  await db.close();
}
