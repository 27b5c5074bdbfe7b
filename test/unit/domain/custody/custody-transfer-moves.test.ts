// Custody transfer moves as documented on `CustodyTransferStatus` (openapi/components/schemas/custody.yaml):
// pending_approval → rejected (approval rejected) | cancelled (approval expired); submitted → completed | failed when the
// provider reports it final; a provider record of another asset, amount or destination is a state clash (409). And the
// four-eyes approval named in a custody body must be the one recorded for that wallet or transfer and action.
import { describe, expect, it } from "vitest";
import type { ApprovalStatus } from "../../../../server/domain/approvals/approval-dto.ts";
import { approvalBindingConflict } from "../../../../server/domain/custody/approval-binding.ts";
import {
  moveForReport,
  type ReportedCustodyTransfer,
  reportMatchesTransfer,
  statusAfterApproval,
} from "../../../../server/domain/custody/custody-transfer-moves.ts";

describe("statusAfterApproval: a pending_approval transfer", () => {
  it.each<[ApprovalStatus, string | null]>([
    ["rejected", "rejected"],
    ["expired", "cancelled"],
    ["pending", null], // still waiting for the second person
    ["approved", null], // moved by shape 2, which uses the approval
  ])("approval %s → %s", (approval, status) => {
    expect(statusAfterApproval(approval)).toBe(status);
  });
});

describe("moveForReport: a submitted transfer", () => {
  const reported = (overrides: Partial<ReportedCustodyTransfer>): ReportedCustodyTransfer => ({
    state: "submitted",
    asset: "USDC",
    amountMinor: "2500000",
    destination: "0x52908400098527886E0F7030069857D2E4169EE7",
    txHash: null,
    failure: null,
    ...overrides,
  });

  it.each<[string, Partial<ReportedCustodyTransfer>, ReturnType<typeof moveForReport>]>([
    ["still submitted → unchanged", {}, null],
    ["completed → completed with the txHash", { state: "completed", txHash: "0xfeed" }, { status: "completed", txHash: "0xfeed" }],
    [
      "failed with a reason → failed with that reason",
      { state: "failed", txHash: "0xdead", failure: { code: "transaction_reverted", message: "reverted" } },
      { status: "failed", txHash: "0xdead", failureReason: { code: "transaction_reverted", message: "reverted" } },
    ],
    [
      "failed without a reason → provider_failed",
      { state: "failed" },
      {
        status: "failed",
        txHash: null,
        failureReason: { code: "provider_failed", message: "The custody provider reported the transfer failed." },
      },
    ],
  ])("%s", (_name, overrides, move) => {
    expect(moveForReport(reported(overrides))).toEqual(move);
  });
});

describe("reportMatchesTransfer", () => {
  const stored = { asset: "USDC", amountMinor: "2500000", destination: "0x52908400098527886E0F7030069857D2E4169EE7" };
  it.each([
    ["the same transfer", {}, true],
    ["the destination in another case", { destination: stored.destination.toLowerCase() }, true],
    ["another asset", { asset: "USDT" }, false],
    ["one minor unit more", { amountMinor: "2500001" }, false],
    ["the same amount with a leading zero", { amountMinor: "02500000" }, false],
    ["another destination", { destination: "0x000000000000000000000000000000000000dEaD" }, false],
  ])("%s: %s", (_name, overrides, matches) => {
    expect(reportMatchesTransfer({ ...stored, ...overrides }, stored)).toBe(matches);
  });
});

describe("approvalBindingConflict", () => {
  const wallet = { id: "cw_1", approvalRequestId: "apr_1" };
  const transfer = { id: "ctr_1", approvalRequestId: "apr_2" };
  it.each([
    [
      "the wallet's own approval",
      { id: "apr_1", resourceId: "cw_1", action: "custody.wallets.create" },
      wallet,
      "custody.wallets.create",
      null,
    ],
    [
      "the transfer's own approval",
      { id: "apr_2", resourceId: "ctr_1", action: "custody.transfers.submit" },
      transfer,
      "custody.transfers.submit",
      null,
    ],
    [
      "another wallet's approval",
      { id: "apr_9", resourceId: "cw_9", action: "custody.wallets.create" },
      wallet,
      "custody.wallets.create",
      "Approval request apr_9 belongs to another wallet or operation",
    ],
    [
      "an approval naming this wallet that the wallet did not record",
      { id: "apr_9", resourceId: "cw_1", action: "custody.wallets.create" },
      wallet,
      "custody.wallets.create",
      "Approval request apr_9 belongs to another wallet or operation",
    ],
    [
      "the recorded approval bound to another resource",
      { id: "apr_2", resourceId: "ctr_9", action: "custody.transfers.submit" },
      transfer,
      "custody.transfers.submit",
      "Approval request apr_2 belongs to another transfer or operation",
    ],
    [
      "the recorded approval for another action",
      { id: "apr_2", resourceId: "ctr_1", action: "providers.invoke:custody.submit_transfer" },
      transfer,
      "custody.transfers.submit",
      "Approval request apr_2 belongs to another transfer or operation",
    ],
    [
      "a provider-operation approval without a resource",
      { id: "apr_1", resourceId: null, action: "custody.wallets.create" },
      wallet,
      "custody.wallets.create",
      "Approval request apr_1 belongs to another wallet or operation",
    ],
  ])("%s", (_name, approval, resource, action, conflict) => {
    expect(approvalBindingConflict(approval, resource, action)).toBe(conflict);
  });
});
