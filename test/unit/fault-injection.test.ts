// FAULT_INJECT is a test-only hook: parsed strictly, never honoured in production, and only the configured operation dies.
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeFaultInjection, parseFaultInjection } from "../../server/config.ts";
import { crashAfterCommitIfInjected, stepFaultsFor } from "../../server/http/fault-injection.ts";

describe("parseFaultInjection", () => {
  it("reads crash-after-commit:<operationId>", () => {
    expect(parseFaultInjection({ FAULT_INJECT: "crash-after-commit:createBankTransfer" })).toEqual({
      crashAfterCommit: "createBankTransfer",
      ignoredInProduction: false,
    });
  });

  it.each([
    ["crash-after-intent", "crashAfterIntent"],
    ["crash-before-result", "crashBeforeResult"],
  ])("reads %s:<operationId> (a provider step's fault point), and says it back", (point, field) => {
    const faults = parseFaultInjection({ FAULT_INJECT: `${point}:createBankTransfer` });
    expect(faults).toEqual({ crashAfterCommit: undefined, [field]: "createBankTransfer", ignoredInProduction: false });
    expect(describeFaultInjection(faults)).toBe(`${point}:createBankTransfer`);
    expect(parseFaultInjection({ NODE_ENV: "production", FAULT_INJECT: `${point}:createBankTransfer` })).toEqual({
      crashAfterCommit: undefined,
      ignoredInProduction: true,
    });
  });

  it("is off when unset, and ignored (with a warning flag) when NODE_ENV=production", () => {
    expect(parseFaultInjection({})).toEqual({ crashAfterCommit: undefined, ignoredInProduction: false });
    expect(parseFaultInjection({ FAULT_INJECT: "" })).toEqual({ crashAfterCommit: undefined, ignoredInProduction: false });
    expect(parseFaultInjection({ NODE_ENV: "production", FAULT_INJECT: "crash-after-commit:createBankTransfer" })).toEqual({
      crashAfterCommit: undefined,
      ignoredInProduction: true,
    });
    // Production ignores it whole: even a malformed value does not stop the server.
    expect(parseFaultInjection({ NODE_ENV: "production", FAULT_INJECT: "nonsense" }).crashAfterCommit).toBeUndefined();
  });

  it("refuses anything else instead of silently ignoring a typo", () => {
    expect(() => parseFaultInjection({ FAULT_INJECT: "crash-after-comit:createBankTransfer" })).toThrow(/FAULT_INJECT/);
    expect(() => parseFaultInjection({ FAULT_INJECT: "crash-after-commit:" })).toThrow(/FAULT_INJECT/);
  });
});

describe("crashAfterCommitIfInjected", () => {
  afterEach(() => vi.restoreAllMocks());
  const faults = { crashAfterCommit: "createBankTransfer", ignoredInProduction: false };

  it.each([
    ["the configured operation", faults, "createBankTransfer", 1],
    ["another operation", faults, "createPayment", 0],
    ["no operation", faults, undefined, 0],
    ["fault injection off", { crashAfterCommit: undefined, ignoredInProduction: false }, "createBankTransfer", 0],
  ])("%s → %i kill(s)", (_case, settings, operationId, kills) => {
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    crashAfterCommitIfInjected(settings, operationId);
    expect(kill).toHaveBeenCalledTimes(kills);
    if (kills) expect(kill).toHaveBeenCalledWith(process.pid, "SIGKILL");
  });
});

describe("stepFaultsFor", () => {
  afterEach(() => vi.restoreAllMocks());

  it("kills at the configured point of the configured operation only", () => {
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    const faults = parseFaultInjection({ FAULT_INJECT: "crash-before-result:createBankTransfer" });
    expect(stepFaultsFor(faults, "createCustodyTransfer")).toBeUndefined();
    expect(stepFaultsFor(faults, undefined)).toBeUndefined();
    const points = stepFaultsFor(faults, "createBankTransfer");
    expect(points?.afterIntent).toBeUndefined();
    points?.beforeResult?.();
    expect(kill).toHaveBeenCalledWith(process.pid, "SIGKILL");
  });
});
