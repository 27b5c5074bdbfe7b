// An organization's compliance policy, stored in Organization.settings under `policy`:
// `{ blockedJurisdictions: string[], maxAmountUsd: string }`. Missing or malformed fields take the defaults.
import { parseDecimalToMinor } from "../../lib/money/minor-units.ts";
import { POLICY_DECIMALS } from "./usd-rates.ts";

export interface PolicySettings {
  /** Jurisdictions the organization blocks on top of the sanctioned ones; `US` also blocks `US-NY`. */
  blockedJurisdictions: string[];
  /** Largest amount of one operation, in USD-equivalent, as a decimal string. */
  maxAmountUsd: string;
}

export const DEFAULT_POLICY: Readonly<PolicySettings> = Object.freeze({ blockedJurisdictions: [], maxAmountUsd: "1000000" });

const JURISDICTION = /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/;

/** The effective policy from an organization's `settings` JSON. */
export function readPolicySettings(settings: unknown): PolicySettings {
  const raw = isObject(settings) && isObject(settings.policy) ? settings.policy : {};
  const blocked = raw.blockedJurisdictions;
  const max = raw.maxAmountUsd;
  return {
    blockedJurisdictions:
      Array.isArray(blocked) && blocked.every((j) => typeof j === "string" && JURISDICTION.test(j))
        ? [...blocked]
        : [...DEFAULT_POLICY.blockedJurisdictions],
    maxAmountUsd: typeof max === "string" && parseDecimalToMinor(max, POLICY_DECIMALS) !== null ? max : DEFAULT_POLICY.maxAmountUsd,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
