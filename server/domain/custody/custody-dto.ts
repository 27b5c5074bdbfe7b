import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";
import { ASSET_DECIMALS } from "../../lib/chains/chain-assets.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import { minorToAmount } from "./custody-assets.ts";

/** The stored rows as Kysely reads them (amounts as numeric text, JSON parsed, timestamps as Date). */
export type CustodyWalletRow = Selectable<DB["CustodyWallet"]>;
export type CustodyTransferRow = Selectable<DB["CustodyTransfer"]>;

export type CustodyWalletDto = components["schemas"]["CustodyWallet"];
export type CustodyTransferDto = components["schemas"]["CustodyTransfer"];
export type CustodyWalletPolicy = components["schemas"]["CustodyWalletPolicy"];

export function toCustodyWalletDto(row: CustodyWalletRow): CustodyWalletDto {
  return {
    custodyWalletId: row.id,
    status: row.status as CustodyWalletDto["status"],
    label: row.label,
    chain: row.chain as CustodyWalletDto["chain"],
    type: row.type as CustodyWalletDto["type"],
    // Any JSON value as given on creation (only an object sets rules: wallet-policy-rules.ts policyRules).
    policy: (row.policy ?? null) as CustodyWalletDto["policy"],
    address: row.address,
    approvalRequestId: row.approvalRequestId,
    provider: row.provider,
    providerWalletId: row.providerWalletId,
    failureReason: (row.failureReason ?? null) as CustodyWalletDto["failureReason"],
    simulated: row.simulated,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toCustodyTransferDto(row: CustodyTransferRow): CustodyTransferDto {
  const minor = numericToMinor(row.amountMinor, 0);
  return {
    custodyTransferId: row.id,
    transferId: row.providerTransferId,
    status: row.status as CustodyTransferDto["status"],
    version: row.version,
    walletId: row.walletId,
    chain: row.chain as CustodyTransferDto["chain"],
    destination: row.destination,
    asset: row.asset as CustodyTransferDto["asset"],
    amountMinor: minor.toString(),
    // The request's `amount` as given; without one, amountMinor in units of the asset.
    amount: row.amountGiven !== null ? (row.amountGiven as { value: unknown }).value : minorToAmount(minor, ASSET_DECIMALS[row.asset] ?? 6),
    note: row.note,
    approvalRequestId: row.approvalRequestId,
    provider: row.provider,
    txHash: row.txHash,
    failureReason: (row.failureReason ?? null) as CustodyTransferDto["failureReason"],
    simulated: row.simulated,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
