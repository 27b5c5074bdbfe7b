import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import type { BankAccount } from "../../providers/capabilities/bank-transfers.ts";
import { formatCurrencyAmount, maskAccountNumber } from "./bank-rails.ts";

export type BankTransferRow = Selectable<DB["BankTransfer"]>;

export type BankTransferDto = components["schemas"]["BankTransfer"];
type AccountSummary = components["schemas"]["BankAccountSummary"];
export type StatusChange = components["schemas"]["BankTransferStatusChange"];

/** The account as the API shows it: account numbers masked, identifiers of other account types null. */
export function summarizeAccount(account: BankAccount): AccountSummary {
  const number = account.type === "iban" ? account.iban : account.accountNumber;
  return {
    type: account.type,
    accountHolderName: account.accountHolderName,
    country: account.country,
    accountNumberMasked: maskAccountNumber(number, account.type === "iban"),
    last4: number.slice(-4),
    bic: account.type === "iban" || account.type === "swift" ? (account.bic ?? null) : null,
    routingNumber: account.type === "aba" ? account.routingNumber : null,
    sortCode: account.type === "sort_code" ? account.sortCode : null,
    accountType: account.type === "aba" ? account.accountType : null,
    bankName: account.bankName ?? null,
  };
}

export function toBankTransferDto(row: BankTransferRow): BankTransferDto {
  return {
    id: row.id,
    transferId: row.id,
    status: row.status as BankTransferDto["status"],
    amount: formatCurrencyAmount(numericToMinor(row.amountMinor, 0), row.currency),
    currency: row.currency,
    rail: row.rail as BankTransferDto["rail"],
    source: summarizeAccount(row.source as unknown as BankAccount),
    destination: summarizeAccount(row.destination as unknown as BankAccount),
    reference: row.reference,
    purposeCode: row.purposeCode,
    senderJurisdiction: row.senderJurisdiction,
    receiverJurisdiction: row.receiverJurisdiction,
    provider: row.provider,
    providerReference: row.providerReference,
    statusHistory: row.statusHistory as unknown as StatusChange[],
    failureReason: (row.failureReason ?? null) as BankTransferDto["failureReason"],
    simulated: row.simulated,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
