// API keys through the member's session: the scopes the contract knows (from the Scope pattern), and creating a key,
// whose secret is returned once and kept only in memory by the page that asked for it.
import { api, type Environment, unwrap } from "./client.ts";
import type { Spec } from "./spec.ts";

export function scopeGroups(spec: Spec): { resource: string; scopes: string[] }[] {
  const pattern = spec.components.schemas.Scope?.pattern ?? "";
  const resources = /^\^\(([^)]+)\):\(([^)]+)\)\$$/.exec(pattern);
  if (!resources) return [];
  const levels = resources[2]!.split("|");
  return resources[1]!.split("|").map((resource) => ({ resource, scopes: levels.map((level) => `${resource}:${level}`) }));
}

export interface CreatedKey {
  id: string;
  prefix: string;
  secret: string;
}

type Loose = Record<string, unknown>;

export function readCreatedKey(body: unknown): CreatedKey {
  const b = (body ?? {}) as Loose;
  const key = ((b.apiKey ?? b.key ?? b) as Loose) ?? {};
  const secret = [b.secret, b.key, key.secret].find((v): v is string => typeof v === "string") ?? "";
  return { id: String(key.id ?? b.id ?? ""), prefix: String(key.prefix ?? b.prefix ?? secret.slice(0, 16)), secret };
}

/** A spending limit as the key form sends it (amounts left empty are left out). */
export interface SpendingLimitInput {
  asset: string;
  perCall?: string;
  per24h?: string;
}

/** A key's spending limit as the API answers it. */
export interface SpendingLimit {
  asset: string;
  perCall: string | null;
  per24h: string | null;
}

/** "USDC: 100 per call, 1,000 per 24 h" — how the key list shows one limit. */
export function describeLimit(limit: SpendingLimit): string {
  const parts = [limit.perCall !== null ? `${limit.perCall} per call` : "", limit.per24h !== null ? `${limit.per24h} per 24 h` : ""];
  return `${limit.asset}: ${parts.filter(Boolean).join(", ")}`;
}

export async function createKey(
  environment: Environment,
  scopes: string[],
  label: string,
  spendingLimits: SpendingLimitInput[] = [],
): Promise<CreatedKey> {
  const body = await unwrap(
    api(environment).POST("/api/v2/agent/api-keys", {
      body: { environment, scopes, label, ...(spendingLimits.length > 0 ? { spendingLimits } : {}) } as never,
    }),
  );
  return readCreatedKey(body);
}
