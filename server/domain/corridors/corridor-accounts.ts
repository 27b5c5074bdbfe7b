// The sandbox accounts and addresses a corridor rehearsal uses on the provider side: the on-ramp's collection account
// (debited from the person's `source`), the off-ramp's payout account (pays `destination.account`) and the off-ramp's
// deposit address (receives the stablecoin when `destinationAddress` is omitted).
import { createHash } from "node:crypto";
import { base58 } from "@scure/base";
import { isEvmChain } from "../../lib/chains/chain-assets.ts";
import type { BankAccount, BankRail } from "../../providers/capabilities/bank-transfers.ts";

const ADDRESS = { line1: "1 Rehearsal Street", city: "Sandbox City", postalCode: "10001", country: "DE" } as const;

const ACCOUNTS: Record<BankAccount["type"], BankAccount> = {
  iban: {
    type: "iban",
    iban: "DE02120300000000202051",
    bic: "BYLADEM1001",
    accountHolderName: "Coinplane Sandbox Ramp",
    country: "DE",
    address: ADDRESS,
  },
  aba: {
    type: "aba",
    routingNumber: "021000021",
    accountNumber: "000987654321",
    accountType: "checking",
    accountHolderName: "Coinplane Sandbox Ramp",
    country: "US",
    address: { line1: "1 Rehearsal Street", city: "New York", region: "NY", postalCode: "10001", country: "US" },
  },
  sort_code: {
    type: "sort_code",
    sortCode: "040004",
    accountNumber: "41921234",
    accountHolderName: "Coinplane Sandbox Ramp",
    country: "GB",
    address: { line1: "1 Rehearsal Street", city: "London", postalCode: "EC1A 1BB", country: "GB" },
  },
  swift: {
    type: "swift",
    bic: "BOTKJPJTXXX",
    accountNumber: "5012345678",
    accountHolderName: "Coinplane Sandbox Ramp",
    country: "JP",
    address: { line1: "1 Rehearsal Street", city: "Tokyo", postalCode: "100-0005", country: "JP" },
  },
};

/** The ramp's own account facing a customer account of this type. */
export const rampAccount = (type: BankAccount["type"]): BankAccount => ACCOUNTS[type];

/** The ramp account for a payout rail (the account type the rail takes). */
export function rampAccountForRail(rail: BankRail): BankAccount {
  if (rail === "ach" || rail === "wire") return ACCOUNTS.aba;
  if (rail === "fps") return ACCOUNTS.sort_code;
  return ACCOUNTS.iban;
}

/** Rail of the on-ramp debit, from the source account: iban → sepa (EUR) or swift, aba → ach, sort_code → fps, swift → swift. */
export function onrampRail(source: BankAccount, currency: string): BankRail {
  if (source.type === "iban") return currency === "EUR" ? "sepa" : "swift";
  if (source.type === "aba") return "ach";
  if (source.type === "sort_code") return "fps";
  return "swift";
}

/** The off-ramp's (sandbox) deposit address on a chain. */
export function offrampDepositAddress(chain: string): string {
  if (isEvmChain(chain)) return "0x52908400098527886E0F7030069857D2E4169EE7";
  return base58.encode(createHash("sha256").update("coinplane-sandbox-offramp-deposit").digest());
}
