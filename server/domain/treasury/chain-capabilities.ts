// An organization's treasury capabilities per chain, stored in Organization.settings under `chainCapabilities`:
// `{ "<chain>": { "mintBurn"?: boolean, "stressTest"?: boolean } }`. Everything is enabled unless set to false.
import type { Queryable } from "../../db/kysely.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { organizationSettings } from "../organizations/organization-settings.ts";

export type ChainCapability = "mintBurn" | "stressTest";
export type ChainCapabilities = Record<string, Partial<Record<ChainCapability, boolean>>>;

const CHAIN = /^[a-z][a-z0-9_]{1,31}$/;
const CAPABILITIES: readonly ChainCapability[] = ["mintBurn", "stressTest"];

/** The stored capabilities, keeping only well-formed entries (a malformed one enables nothing and disables nothing). */
export function readChainCapabilities(settings: unknown): ChainCapabilities {
  const raw = isObject(settings) && isObject(settings.chainCapabilities) ? settings.chainCapabilities : {};
  const out: ChainCapabilities = {};
  for (const [chain, flags] of Object.entries(raw)) {
    if (!CHAIN.test(chain) || !isObject(flags)) continue;
    const entry: Partial<Record<ChainCapability, boolean>> = {};
    for (const capability of CAPABILITIES) if (typeof flags[capability] === "boolean") entry[capability] = flags[capability] as boolean;
    out[chain] = entry;
  }
  return out;
}

const LABEL: Record<ChainCapability, string> = { mintBurn: "Mint and burn", stressTest: "Stress tests" };

/** 403 CHAIN_CAPABILITY_DISABLED when the organization turned `capability` off for `chain`. */
export async function assertChainCapability(
  db: Queryable,
  organizationId: string,
  chain: string,
  capability: ChainCapability,
): Promise<void> {
  const enabled = readChainCapabilities(await organizationSettings(db, organizationId))[chain]?.[capability] ?? true;
  if (!enabled) {
    throw new ServiceError("CHAIN_CAPABILITY_DISABLED", `${LABEL[capability]} are disabled for this organization on ${chain}`, {
      extensions: { chain, capability },
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
