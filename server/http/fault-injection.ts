// Test-only fault injection for the system tests (test/system/crash-and-drain.test.ts, provider-reconcile.test.ts); the
// setting is FAULT_INJECT, parsed in server/config.ts. Each point SIGKILLs this process (not exit: nothing else runs —
// no response, no cleanup) when the request's operation is the one named:
//   - `crash-after-commit:<operationId>`: right after the business transaction commits and before the response is
//     written: the effect and its idempotency record are durable, the client sees a dead connection;
//   - `crash-after-intent:<operationId>`: a provider step's intent committed, the provider not called;
//   - `crash-before-result:<operationId>`: the provider answered, its result not recorded.
import type { FaultInjection } from "../config.ts";
import type { StepFaults } from "../db/unit-of-work/index.ts";

const crash = () => process.kill(process.pid, "SIGKILL");

/** Called between commit and response. */
export function crashAfterCommitIfInjected(faults: FaultInjection, operationId: string | undefined): void {
  if (faults.crashAfterCommit !== undefined && operationId === faults.crashAfterCommit) crash();
}

/** The fault points between a provider step's transactions for this operation (undefined: none injected). */
export function stepFaultsFor(faults: FaultInjection, operationId: string | undefined): StepFaults | undefined {
  if (operationId === undefined) return undefined;
  const afterIntent = faults.crashAfterIntent === operationId ? crash : undefined;
  const beforeResult = faults.crashBeforeResult === operationId ? crash : undefined;
  return afterIntent || beforeResult ? { afterIntent, beforeResult } : undefined;
}
