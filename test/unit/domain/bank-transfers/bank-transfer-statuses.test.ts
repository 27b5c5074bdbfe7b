// The bank transfer state machine as documented on `BankTransferStatus` (openapi/components/schemas/bank-transfers.yaml):
//   pending → processing | cancelled;  processing → completed | failed | returned | cancelled;  the last four are terminal.
import { describe, expect, it } from "vitest";
import {
  isAcceptedProviderReport,
  isCancellableBankStatus,
  isTerminalBankStatus,
} from "../../../../server/domain/bank-transfers/bank-transfer-statuses.ts";

const STATUSES = ["pending", "processing", "completed", "failed", "returned", "cancelled"] as const;

describe("terminal states", () => {
  it.each([
    ["pending", false],
    ["processing", false],
    ["completed", true],
    ["failed", true],
    ["returned", true],
    ["cancelled", true],
  ])("%s terminal: %s", (status, terminal) => {
    expect(isTerminalBankStatus(status)).toBe(terminal);
  });
});

describe("bank-transfer/cancel: only pending and processing transfers", () => {
  it.each(STATUSES.map((s) => [s, s === "pending" || s === "processing"] as const))("%s cancellable: %s", (status, ok) => {
    expect(isCancellableBankStatus(status)).toBe(ok);
  });
});

describe("what a provider's status report may move a stored transfer to", () => {
  it.each([
    // documented moves
    ["pending", "processing", true],
    ["pending", "cancelled", true],
    ["processing", "completed", true],
    ["processing", "failed", true],
    ["processing", "returned", true],
    ["processing", "cancelled", true],
    // an unchanged status is always recorded as "no change"
    ["pending", "pending", true],
    ["processing", "processing", true],
    // backwards or skipping the rail
    ["processing", "pending", false],
    ["pending", "completed", false],
    ["pending", "returned", false],
    // nothing leaves a terminal state
    ["completed", "processing", false],
    ["completed", "returned", false],
    ["failed", "completed", false],
    ["returned", "completed", false],
    ["cancelled", "processing", false],
    // not a state at all
    ["processing", "settled", false],
    ["unknown", "processing", false],
  ])("%s → %s: %s", (stored, reported, accepted) => {
    expect(isAcceptedProviderReport(stored, reported)).toBe(accepted);
  });
});
