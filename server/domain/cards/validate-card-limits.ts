import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { parseCardAmount } from "./card-amount.ts";

export type CardLimits = components["schemas"]["CardLimits"];

export interface ParsedCardLimits {
  perAuthorization?: bigint;
  daily?: bigint;
  monthly?: bigint;
  allowedCategories?: string[];
  blockedCategories?: string[];
}

/** Checks limits against the funding asset's precision and `perAuthorization ≤ daily ≤ monthly` (where given);
 * 422 CARD_REQUEST_REJECTED otherwise. `base` names the body field the limits came from (for error paths). */
export function validateCardLimits(limits: CardLimits, asset: string, base = "limits"): ParsedCardLimits {
  const parsed: ParsedCardLimits = {
    allowedCategories: limits.allowedCategories,
    blockedCategories: limits.blockedCategories,
  };
  for (const field of ["perAuthorization", "daily", "monthly"] as const) {
    const value = limits[field];
    if (value !== undefined) parsed[field] = parseCardAmount(value, asset, `${base}.${field}`, { allowZero: true });
  }
  const ordered: Array<[keyof ParsedCardLimits, bigint | undefined]> = [
    ["perAuthorization", parsed.perAuthorization],
    ["daily", parsed.daily],
    ["monthly", parsed.monthly],
  ];
  const given = ordered.filter((entry): entry is [keyof ParsedCardLimits, bigint] => entry[1] !== undefined);
  for (let i = 1; i < given.length; i++) {
    const [lowName, low] = given[i - 1]!;
    const [highName, high] = given[i]!;
    if (low > high) {
      throw new ServiceError("CARD_REQUEST_REJECTED", `${base}.${lowName} must not exceed ${base}.${highName}`, {
        errors: [{ path: `/body/${base}/${lowName}`, message: `must not exceed ${base}.${highName}` }],
      });
    }
  }
  return parsed;
}

/** The stored limits JSON read back. */
export const storedLimits = (value: unknown): CardLimits =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as CardLimits) : {};
