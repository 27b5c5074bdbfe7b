// Secrets the server makes for itself (a sandbox's admin token, its webhook secrets key, a first-start invitation link)
// go into a file of the data folder, readable by its owner only, and the start prints the file's path — never the
// secret, which would otherwise end up in whatever captures stdout (a terminal's scrollback, a log collector).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface SecretFile {
  value: string;
  /** Where it is kept: what to print. */
  file: string;
  /** True when this call made it (first start). */
  created: boolean;
}

/** The secret kept in `dataDir/name`, made by `generate` and written (mode 0600) when the file does not exist yet. */
export function keepSecretFile(dataDir: string, name: string, generate: () => string): SecretFile {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return { value: readFileSync(file, "utf8").trim(), file, created: false };
  const value = generate();
  writeSecretFile(file, value);
  return { value, file, created: true };
}

/** Writes `value` to `file` (mode 0600, folder created), replacing what was there. */
export function writeSecretFile(file: string, value: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
}
