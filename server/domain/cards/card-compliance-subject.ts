import type { ComplianceSubject } from "../compliance/types.ts";
import type { CardholderRow, CardProgrammeRow } from "./card-rows.ts";

export interface CardholderParty {
  name: string;
  dateOfBirth?: string | null;
  billingAddress: { country: string };
}

/** What card writes screen: the cardholder (name, date of birth, billing country), the programme's jurisdictions, and
 * the amount at stake (funding, or a per-authorization limit) against the organization's per-operation amount limit. */
export function cardComplianceSubject(options: {
  operation: string;
  programme: Pick<CardProgrammeRow, "jurisdictions">;
  /** None (undefined or null) for a card issued with no cardholder. */
  cardholder?: CardholderParty | Pick<CardholderRow, "name" | "dateOfBirth" | "billingAddress"> | null;
  amount?: { value: string; currency: string };
}): ComplianceSubject {
  const { operation, programme, cardholder, amount } = options;
  const subject: ComplianceSubject = { operation, jurisdictions: { jurisdiction: programme.jurisdictions } };
  if (cardholder) {
    const address = cardholder.billingAddress as { country: string };
    subject.parties = [
      {
        role: "cardholder",
        name: cardholder.name,
        country: address.country,
        ...(cardholder.dateOfBirth ? { dateOfBirth: cardholder.dateOfBirth } : {}),
      },
    ];
  }
  if (amount) subject.amount = amount;
  return subject;
}
