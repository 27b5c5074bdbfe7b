// Test-only fault injection for the system tests (test/system/crash-and-drain.test.ts); the setting is FAULT_INJECT,
// parsed in server/config.ts. `crash-after-commit:<operationId>` kills this process right after that operation's business
// transaction commits and before its response is written: the effect and its idempotency record are durable, the client
// sees a dead connection.
import type { FaultInjection } from "../config.ts";

/** Called between commit and response. SIGKILL (not exit) so nothing else runs: no response, no cleanup. */
export function crashAfterCommitIfInjected(faults: FaultInjection, operationId: string | undefined): void {
  if (faults.crashAfterCommit !== undefined && operationId === faults.crashAfterCommit) process.kill(process.pid, "SIGKILL");
}
