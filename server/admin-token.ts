// ADMIN_TOKEN: required in production; in a sandbox deployment generated once and kept in the data folder (its path is
// printed at start, never the token: server/lib/secret-file.ts).
import type { Config } from "./config.ts";
import { randomBase62 } from "./lib/ids.ts";
import { keepSecretFile } from "./lib/secret-file.ts";

export function resolveAdminToken(config: Config, dataDir: string): { token: string; generated: boolean; file: string | undefined } {
  if (config.adminToken) return { token: config.adminToken, generated: false, file: undefined };
  if (config.nodeEnv === "production") throw new Error("ADMIN_TOKEN must be set when NODE_ENV=production");
  const kept = keepSecretFile(dataDir, "admin-token", () => `cp_admin_${randomBase62(43)}`);
  return { token: kept.value, generated: kept.created, file: kept.file };
}
