// How provider answers become corridor step outcomes (WorkflowStepError in openapi/components/schemas/corridors.yaml):
// transient — PROVIDER_UNAVAILABLE, SETTLEMENT_PENDING — are retryable; permanent — the bank failure reasons
// (INSUFFICIENT_FUNDS, ACCOUNT_CLOSED, …), PROVIDER_FAILED, CANCELLED — are not. Codes are upper snake case.
import { describe, expect, it } from "vitest";
import {
  bankLegFailure,
  custodyLegFailure,
  failedStep,
  outcomeOfProviderError,
} from "../../../../server/domain/corridors/step-outcomes.ts";
import { ProviderUnavailableError } from "../../../../server/providers/capabilities/provider-unavailable.ts";
import { ProviderExecutionError } from "../../../../server/providers/provider-adapter.ts";

const live = { slug: "acme", simulated: false };
const brief = (o: ReturnType<typeof failedStep> | null) => (o && o.kind === "failed" ? [o.code, o.retryable] : null);

describe("failedStep", () => {
  it("names the provider that served the step", () => {
    expect(failedStep(live, false, "PROVIDER_FAILED", "m")).toEqual({
      kind: "failed",
      retryable: false,
      code: "PROVIDER_FAILED",
      message: "m",
      provider: "acme",
      simulated: false,
    });
  });

  it("without a provider, names none and counts as simulated", () => {
    expect(failedStep(null, false, "MISSING_QUOTE", "m")).toMatchObject({ provider: null, simulated: true });
  });
});

describe("outcomeOfProviderError", () => {
  it.each([
    ["an unreachable provider is transient", new ProviderUnavailableError("down"), ["PROVIDER_UNAVAILABLE", true]],
    ["a failure the provider answered is permanent", new ProviderExecutionError("refused"), ["PROVIDER_FAILED", false]],
  ])("%s", (_name, error, expected) => {
    expect(brief(outcomeOfProviderError(live, error))).toEqual(expected);
  });

  it("rethrows anything else (a bug, not a provider answer)", () => {
    const bug = new TypeError("x is undefined");
    expect(() => outcomeOfProviderError(live, bug)).toThrow(bug);
  });
});

describe("bankLegFailure: the leg's status after the last read", () => {
  it.each([
    ["completed", null, null],
    ["failed", { code: "insufficient_funds", message: "no money" }, ["INSUFFICIENT_FUNDS", false]],
    ["returned", { code: "account_closed", message: "closed" }, ["ACCOUNT_CLOSED", false]],
    ["failed", null, ["FAILED", false]],
    ["returned", null, ["RETURNED", false]],
    ["cancelled", null, ["CANCELLED", false]],
    ["processing", null, ["SETTLEMENT_PENDING", true]],
    ["pending", null, ["SETTLEMENT_PENDING", true]],
  ])("%s (reason %j) → %j", (status, reason, expected) => {
    expect(brief(bankLegFailure(live, status, reason))).toEqual(expected);
  });

  it("keeps the bank's message", () => {
    expect(bankLegFailure(live, "failed", { code: "insufficient_funds", message: "no money" })).toMatchObject({ message: "no money" });
  });
});

describe("custodyLegFailure: the custody transfer as reported after submission", () => {
  it.each([
    ["completed", null, null],
    ["failed", { code: "transaction_reverted", message: "reverted" }, ["TRANSACTION_REVERTED", false]],
    ["failed", null, ["PROVIDER_FAILED", false]],
    ["submitted", null, ["SETTLEMENT_PENDING", true]],
  ])("%s (failure %j) → %j", (state, failure, expected) => {
    expect(brief(custodyLegFailure(live, { state, failure }))).toEqual(expected);
  });
});
