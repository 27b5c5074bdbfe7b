// The one retry loop of a handler or domain write that starts a whole attempt over (a card write after a transient
// conflict, a bank transfer status lookup overtaken by a concurrent one). The unit of work's own conflict retries
// (server/db/unit-of-work/run-unit.ts) cover a single transaction; this covers an attempt that must end first (its unit of work
// answered, its key freed) before the next one runs.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Whether this attempt's error starts another attempt (never after the last one). */
  retryable: (error: unknown) => boolean;
  /** A pause before retry number `retry` (0 for the first retry): jitter, so colliding writers do not collide in step. */
  pause?: (retry: number) => Promise<void>;
}

/** Runs `attempt` until it answers, an error is not retryable, or the last attempt (told by `lastAttempt`) failed. */
export async function retryWhile<T>(policy: RetryPolicy, attempt: (lastAttempt: boolean) => Promise<T>): Promise<T> {
  for (let retry = 0; ; retry++) {
    const lastAttempt = retry + 1 >= policy.attempts;
    try {
      return await attempt(lastAttempt);
    } catch (error) {
      if (lastAttempt || !policy.retryable(error)) throw error;
      await policy.pause?.(retry);
    }
  }
}
