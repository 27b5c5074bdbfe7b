// Policy stage (pure): the organization's blocked jurisdictions and per-operation amount limit.

import { jurisdictionMatches } from "../../lib/compliance/normalize.ts";
import { parseDecimalToMinor } from "../../lib/money/minor-units.ts";
import { dedupeReasons } from "./dedupe-reasons.ts";
import type { PolicySettings } from "./policy-settings.ts";
import { subjectJurisdictions } from "./subject-jurisdictions.ts";
import type { ComplianceReason, ComplianceSubject } from "./types.ts";
import { formatUsd36, POLICY_DECIMALS, toUsdMinor36 } from "./usd-rates.ts";

export interface PolicyCheck {
  reasons: ComplianceReason[];
  /** The subject's amount in USD-equivalent ("1350.00"), or null without an amount or a rate. */
  amountUsd: string | null;
}

const reason = (rule: string, message: string): ComplianceReason => ({ stage: "policy", rule, message });

export function checkPolicy(subject: ComplianceSubject, policy: PolicySettings): PolicyCheck {
  const reasons: ComplianceReason[] = [];
  for (const { field, code } of subjectJurisdictions(subject)) {
    const hit = policy.blockedJurisdictions.find((blocked) => jurisdictionMatches(code, blocked));
    if (hit) reasons.push(reason("policy.jurisdiction_blocked", `${field} ${code} is blocked by the organization's policy (${hit})`));
  }
  let amountUsd: string | null = null;
  if (subject.amount) {
    const { value, currency } = subject.amount;
    const usd = toUsdMinor36(value, currency);
    if (usd.kind === "unsupported_currency") {
      reasons.push(reason("policy.currency_unsupported", `currency ${currency} has no USD rate, so the amount limit cannot be applied`));
    } else if (usd.kind === "invalid_amount") {
      reasons.push(
        reason("policy.amount_invalid", `amount ${value} is not a decimal amount with at most ${POLICY_DECIMALS} decimal places`),
      );
    } else {
      amountUsd = formatUsd36(usd.usdMinor);
      const limit36 = (parseDecimalToMinor(policy.maxAmountUsd, POLICY_DECIMALS) as bigint) * 10n ** BigInt(POLICY_DECIMALS);
      if (usd.usdMinor > limit36) {
        reasons.push(
          reason(
            "policy.amount_limit",
            `amount ${value} ${currency} (${amountUsd} USD) exceeds the organization's limit of ${policy.maxAmountUsd} USD per operation`,
          ),
        );
      }
    }
  }
  return { reasons: dedupeReasons(reasons), amountUsd };
}
