import { ProviderConfigError } from "../provider-adapter.ts";

/** Simulators accept an object config; `allowed` lists the keys they understand, anything else is a misconfiguration. */
export function parseObjectConfig(config: unknown, allowed: Record<string, (value: unknown) => boolean>): Record<string, unknown> {
  if (config === null || typeof config !== "object" || Array.isArray(config)) throw new ProviderConfigError("config must be an object");
  for (const [key, value] of Object.entries(config)) {
    const check = allowed[key];
    if (!check) throw new ProviderConfigError(`unknown config key "${key}"`);
    if (!check(value)) throw new ProviderConfigError(`config key "${key}" has an invalid value`);
  }
  return config as Record<string, unknown>;
}

export const isDecimalString = (v: unknown) => typeof v === "string" && /^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(v);
