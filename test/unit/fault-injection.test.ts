// FAULT_INJECT is a test-only hook: parsed strictly, never honoured in production.
import { describe, expect, it } from "vitest";
import { parseFaultInjection } from "../../server/http/fault-injection.ts";

describe("parseFaultInjection", () => {
  it("reads crash-after-commit:<operationId>", () => {
    expect(parseFaultInjection({ FAULT_INJECT: "crash-after-commit:createBankTransfer" })).toEqual({
      crashAfterCommit: "createBankTransfer",
    });
  });

  it("is off when unset, and ignored when NODE_ENV=production", () => {
    expect(parseFaultInjection({})).toEqual({ crashAfterCommit: undefined });
    expect(parseFaultInjection({ NODE_ENV: "production", FAULT_INJECT: "crash-after-commit:createBankTransfer" })).toEqual({
      crashAfterCommit: undefined,
    });
  });

  it("refuses anything else instead of silently ignoring a typo", () => {
    expect(() => parseFaultInjection({ FAULT_INJECT: "crash-after-comit:createBankTransfer" })).toThrow(/FAULT_INJECT/);
    expect(() => parseFaultInjection({ FAULT_INJECT: "crash-after-commit:" })).toThrow(/FAULT_INJECT/);
  });
});
