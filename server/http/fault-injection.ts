// Test-only fault injection for the system tests (test/system/crash-and-drain.test.ts). FAULT_INJECT=
// `crash-after-commit:<operationId>` SIGKILLs this process right after that operation's business transaction commits and
// before its response is written: the effect and its idempotency record are durable, the client sees a dead connection.
// Never honoured when NODE_ENV=production.

export interface FaultInjection {
  crashAfterCommit: string | undefined;
}

export function parseFaultInjection(env: NodeJS.ProcessEnv = process.env): FaultInjection {
  const raw = env.FAULT_INJECT;
  if (!raw || env.NODE_ENV === "production") return { crashAfterCommit: undefined };
  const match = /^crash-after-commit:([A-Za-z0-9_]+)$/.exec(raw);
  if (!match) throw new Error(`FAULT_INJECT must be crash-after-commit:<operationId>, got "${raw}"`);
  return { crashAfterCommit: match[1] };
}

const faults = parseFaultInjection();

/** Called between commit and response. SIGKILL (not exit) so nothing else runs: no response, no cleanup. */
export function crashAfterCommitIfInjected(operationId: string | undefined): void {
  if (faults.crashAfterCommit !== undefined && operationId === faults.crashAfterCommit) process.kill(process.pid, "SIGKILL");
}

export const faultInjectionActive = (): boolean => faults.crashAfterCommit !== undefined;
