// What an approval request would do, in the words of the inbox: the operation, the amount with its asset, the
// destination. Read from the request's payload (the guarded operation's input, bound by `payloadHash`), whose shape
// each `action` documents: treasury mint and burn (`IssuanceRequest`), custody wallets and transfers, and provider
// operations (`{ providerSlug, category, operation, input }`).
import type { components } from "../../../sdk/src/generated/openapi.ts";
import { formatAmount } from "./amounts.ts";

type Approval = components["schemas"]["ApprovalRequest"];

export interface AssetInfo {
  asset: string;
  decimals: number;
}

/** What turns minor units into amounts (loaded by asset-catalogue.ts). */
export interface AssetCatalogue {
  /** issuerId → the issuer's token (treasury mint and burn name only the issuer). */
  issuers: Map<string, AssetInfo>;
  /** Custody asset symbol → decimals. */
  decimals: Map<string, number>;
}
type Loose = Record<string, unknown>;

export interface ApprovalSummary {
  /** What it does, in words ("Mint", "Custody transfer"). */
  operation: string;
  /** "1,250.00 USDC", or "—" when the operation moves no amount. */
  amount: string;
  asset: string;
  /** Where it goes (an address, a wallet), or "—". */
  destination: string;
}

const NONE = "—";
const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null);

/** An amount given in minor units of an asset whose decimals the catalogue may know. */
function minorOf(minor: unknown, asset: string | null, decimals: number | null): string {
  const digits = text(minor);
  return digits === null ? NONE : formatAmount(digits, asset, decimals);
}

function issuance(kind: "mint" | "burn", payload: Loose, catalogue: AssetCatalogue): ApprovalSummary {
  const issuer = catalogue.issuers.get(text(payload.issuerId) ?? "");
  const holder = text(kind === "mint" ? payload.to : payload.from);
  return {
    operation: kind === "mint" ? "Mint" : "Burn",
    amount: minorOf(payload.amountMinor, issuer?.asset ?? null, issuer?.decimals ?? null),
    asset: issuer?.asset ?? NONE,
    // A burn takes the tokens from the holder: its "destination" is where they leave from.
    destination: holder === null ? NONE : kind === "mint" ? holder : `from ${holder}`,
  };
}

function transfer(operation: string, input: Loose, catalogue: AssetCatalogue): ApprovalSummary {
  const asset = text(input.asset) ?? text(input.currency);
  const decimal = text(input.amount);
  const amount =
    input.amountMinor !== undefined
      ? minorOf(input.amountMinor, asset, asset === null ? null : (catalogue.decimals.get(asset) ?? null))
      : decimal !== null
        ? `${decimal}${asset ? ` ${asset}` : ""}`
        : NONE;
  return {
    operation,
    amount,
    asset: asset ?? NONE,
    destination: text(input.destination) ?? text(input.to) ?? text(input.toAddress) ?? text(input.address) ?? NONE,
  };
}

export function summarizeApproval(approval: Approval, catalogue: AssetCatalogue): ApprovalSummary {
  const payload = (approval.payload ?? {}) as Loose;
  switch (approval.action) {
    case "treasury.mint":
      return issuance("mint", payload, catalogue);
    case "treasury.burn":
      return issuance("burn", payload, catalogue);
    case "custody.transfers.submit":
      return transfer("Custody transfer", payload, catalogue);
    case "custody.wallets.create": {
      const where = [text(payload.chain), text(payload.type)].filter(Boolean).join(", ");
      return {
        operation: "New custody wallet",
        amount: NONE,
        asset: NONE,
        destination: `${text(payload.label) ?? "wallet"}${where ? ` (${where})` : ""}`,
      };
    }
  }
  if (approval.kind === "provider_operation") {
    const input = (payload.input ?? {}) as Loose;
    const name = [text(payload.category), text(payload.operation)].filter(Boolean).join(" ").replace(/_/g, " ");
    const via = text(payload.providerSlug);
    const operation = name ? `${name[0]!.toUpperCase()}${name.slice(1)}` : approval.action;
    return transfer(`${operation}${via ? ` via ${via}` : ""}`, input, catalogue);
  }
  return transfer(approval.action, { ...((payload.input ?? {}) as Loose), ...payload }, catalogue);
}
