// ADMIN_TOKEN: required in production; in a sandbox deployment generated once, printed once, kept in the data folder.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "./config.ts";
import { randomBase62 } from "./lib/ids.ts";

export function resolveAdminToken(config: Config, dataDir: string): { token: string; generated: boolean } {
  if (config.adminToken) return { token: config.adminToken, generated: false };
  if (config.nodeEnv === "production") throw new Error("ADMIN_TOKEN must be set when NODE_ENV=production");
  const file = path.join(dataDir, "admin-token");
  if (existsSync(file)) return { token: readFileSync(file, "utf8").trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const token = `cp_admin_${randomBase62(43)}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, generated: true };
}
