// The `oneOf` bodies are tagged once at the HTTP edge: each branch gets its kind with the body unchanged, and a body
// that matches no branch (or several — the validator refuses both) is a 400 VALIDATION_ERROR in the v2 shape.
import { describe, expect, it } from "vitest";
import { ServiceError } from "../../server/errors/service-error.ts";
import {
  custodyTransferRequest,
  custodyTransferStatusRequest,
  custodyWalletRequest,
} from "../../server/http/request-shapes/custody-requests.ts";
import { issueCardRequest } from "../../server/http/request-shapes/issue-card-request.ts";

// The edge functions take the generated body types; these tests also feed bodies no validator would pass.
type Tagger = (body: never) => { kind: string };

const WALLET = "cw_7Hk2Mn5Pq8Rs1Tv4Wx6Yz9";
const TRANSFER = "ct_9Bd3Fg6Hj1Kl4Mn7Pq2Rs5";
const APPROVAL = "apr_4Kd8Wq2Zx7Lm3Np9Rt5Vb1";
const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const CARDHOLDER = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  billingAddress: { line1: "1 Main St", city: "Berlin", postalCode: "10115", country: "DE" },
};

const tagged: Array<[string, Tagger, Record<string, unknown>, string]> = [
  [
    "wallet: request (with optional members)",
    custodyWalletRequest,
    { label: "Ops", chain: "base", type: "mpc", organizationId: "org_acme" },
    "request",
  ],
  ["wallet: activate", custodyWalletRequest, { custodyWalletId: WALLET, approvalRequestId: APPROVAL }, "activate"],
  [
    "transfer: request",
    custodyTransferRequest,
    { walletId: WALLET, destination: ADDRESS, asset: "USDC", amountMinor: "1000000", note: "Payout" },
    "request",
  ],
  ["transfer: submit", custodyTransferRequest, { custodyTransferId: TRANSFER, approvalRequestId: APPROVAL }, "submit"],
  ["transfer: advance", custodyTransferRequest, { custodyTransferId: TRANSFER, expectedVersion: 3 }, "advance"],
  ["transfer status: by custody transfer id", custodyTransferStatusRequest, { custodyTransferId: TRANSFER }, "by-custody-transfer-id"],
  ["transfer status: by provider transfer id", custodyTransferStatusRequest, { transferId: "sim_tx_1" }, "by-provider-transfer-id"],
  ["issue card: existing cardholder", issueCardRequest, { programmeId: "prg_1", cardholderId: "ch_1" }, "existing-cardholder"],
  ["issue card: new cardholder", issueCardRequest, { programmeId: "prg_1", cardholder: CARDHOLDER, limits: {} }, "new-cardholder"],
  // The description requires only programmeId: a card with no cardholder.
  ["issue card: no cardholder", issueCardRequest, { programmeId: "prg_1", limits: {} }, "no-cardholder"],
];

const untaggable: Array<[string, Tagger, Record<string, unknown>]> = [
  ["wallet: empty body", custodyWalletRequest, {}],
  ["wallet: request missing type", custodyWalletRequest, { label: "Ops", chain: "base" }],
  ["wallet: activate missing approval", custodyWalletRequest, { custodyWalletId: WALLET }],
  [
    "wallet: both shapes",
    custodyWalletRequest,
    { label: "Ops", chain: "base", type: "mpc", custodyWalletId: WALLET, approvalRequestId: APPROVAL },
  ],
  ["transfer: only the transfer id", custodyTransferRequest, { custodyTransferId: TRANSFER }],
  [
    "transfer: submit and advance",
    custodyTransferRequest,
    { custodyTransferId: TRANSFER, approvalRequestId: APPROVAL, expectedVersion: 1 },
  ],
  ["transfer status: neither id", custodyTransferStatusRequest, { organizationId: "org_acme" }],
  ["transfer status: both ids", custodyTransferStatusRequest, { custodyTransferId: TRANSFER, transferId: "sim_tx_1" }],
  ["issue card: both cardholders", issueCardRequest, { programmeId: "prg_1", cardholderId: "ch_1", cardholder: CARDHOLDER }],
];

describe("request shapes: oneOf bodies tagged at the edge", () => {
  it.each(tagged)("%s", (_name, tag, body, kind) => {
    expect(tag(body as never)).toEqual({ ...body, kind });
  });

  it("leaves the validated body untouched", () => {
    const body = { custodyTransferId: TRANSFER, expectedVersion: 3 };
    custodyTransferRequest(body);
    expect(body).toEqual({ custodyTransferId: TRANSFER, expectedVersion: 3 });
  });

  it.each(untaggable)("%s → 400 VALIDATION_ERROR", (_name, tag, body) => {
    let thrown: unknown;
    try {
      tag(body as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect(thrown).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      message: "/body must match exactly one schema in oneOf",
      errors: [{ path: "/body", message: "must match exactly one schema in oneOf" }],
    });
  });
});
