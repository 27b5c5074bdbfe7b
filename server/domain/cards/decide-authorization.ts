import type { components } from "../../generated/openapi.ts";
import type { ParsedCardLimits } from "./validate-card-limits.ts";

export type DeclineReason = components["schemas"]["DeclineReason"];

export interface AuthorizationFacts {
  cardStatus: string;
  limits: ParsedCardLimits;
  merchantCategory: string;
  amountMinor: bigint;
  /** Approved authorizations created this UTC day / month, minus what was reversed of them. */
  authorizedTodayMinor: bigint;
  authorizedThisMonthMinor: bigint;
  /** What can fund it: the card's available balance (prefunded) or the programme's funding account (just_in_time). */
  fundsMinor: bigint;
}

/** The decision on a simulated authorization: null (approve) or the first failing check, in the documented order. */
export function decideAuthorization(facts: AuthorizationFacts): DeclineReason | null {
  const { limits, amountMinor } = facts;
  if (facts.cardStatus === "frozen") return "card_frozen";
  if (facts.cardStatus !== "active") return "card_deactivated";
  if (limits.blockedCategories?.includes(facts.merchantCategory)) return "merchant_category_blocked";
  if (limits.allowedCategories && !limits.allowedCategories.includes(facts.merchantCategory)) return "merchant_category_not_allowed";
  if (limits.perAuthorization !== undefined && amountMinor > limits.perAuthorization) return "limit_per_authorization";
  if (limits.daily !== undefined && facts.authorizedTodayMinor + amountMinor > limits.daily) return "limit_daily";
  if (limits.monthly !== undefined && facts.authorizedThisMonthMinor + amountMinor > limits.monthly) return "limit_monthly";
  if (amountMinor > facts.fundsMinor) return "insufficient_funds";
  return null;
}
