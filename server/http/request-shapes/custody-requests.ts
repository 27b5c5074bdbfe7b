// The custody `oneOf` bodies, tagged at the edge (see tag-one-of.ts). A route handler passes the validated body:
//   createCustodyWallet({ uow, books, auth, request: custodyWalletRequest(body), requestId })
import type { CustodyTransferRequest, CustodyTransferStatusRequest, CustodyWalletRequest } from "../../domain/custody/custody-requests.ts";
import type { components } from "../../generated/openapi.ts";
import { tagOneOf } from "./tag-one-of.ts";

type Schemas = components["schemas"];

export const custodyWalletRequest = (body: Schemas["CustodyWalletRequest"]): CustodyWalletRequest =>
  tagOneOf<{ request: Schemas["RequestCustodyWallet"]; activate: Schemas["ActivateCustodyWallet"] }>(body, {
    request: ["label", "chain", "type"],
    activate: ["custodyWalletId", "approvalRequestId"],
  });

export const custodyTransferRequest = (body: Schemas["CustodyTransferRequest"]): CustodyTransferRequest =>
  tagOneOf<{
    request: Schemas["RequestCustodyTransfer"];
    submit: Schemas["SubmitCustodyTransfer"];
    advance: Schemas["AdvanceCustodyTransfer"];
  }>(body, {
    request: ["walletId", "destination", "asset", "amountMinor"],
    submit: ["custodyTransferId", "approvalRequestId"],
    advance: ["custodyTransferId", "expectedVersion"],
  });

export const custodyTransferStatusRequest = (body: Schemas["CustodyTransferStatusRequest"]): CustodyTransferStatusRequest =>
  tagOneOf<{ "by-custody-transfer-id": Schemas["CustodyTransferById"]; "by-provider-transfer-id": Schemas["CustodyTransferByProviderId"] }>(
    body,
    { "by-custody-transfer-id": ["custodyTransferId"], "by-provider-transfer-id": ["transferId"] },
  );
