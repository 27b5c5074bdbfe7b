// The custody request shapes as the domain takes them: one tagged union per operation. The HTTP edge decides the tag
// once, from the `oneOf` branch the body matched (server/http/request-shapes/custody-requests.ts), so the domain
// switches on `kind` instead of probing the body for members.
import type { components } from "../../generated/openapi.ts";

type Schemas = components["schemas"];

/** POST custody/wallets: shape 1 requests a wallet, shape 2 activates it once approved. */
export type CustodyWalletRequest =
  | ({ kind: "request" } & Schemas["RequestCustodyWallet"])
  | ({ kind: "activate" } & Schemas["ActivateCustodyWallet"]);

/** POST custody/transfers: shape 1 requests, shape 2 submits with an approval, shape 3 advances at a version. */
export type CustodyTransferRequest =
  | ({ kind: "request" } & Schemas["RequestCustodyTransfer"])
  | ({ kind: "submit" } & Schemas["SubmitCustodyTransfer"])
  | ({ kind: "advance" } & Schemas["AdvanceCustodyTransfer"]);

/** POST custody/transfers/status: by Coinplane's id (shape 1) or the provider's (shape 2). */
export type CustodyTransferStatusRequest =
  | ({ kind: "by-custody-transfer-id" } & Schemas["CustodyTransferById"])
  | ({ kind: "by-provider-transfer-id" } & Schemas["CustodyTransferByProviderId"]);
