// When a failed delivery is tried again. After attempt n failed, the next is due schedule[n-1] seconds later, ±20% so
// the deliveries of an outage do not all come back in the same instant; after the attempt that follows the schedule's
// last entry the delivery is final (failed). With the default schedule that is 10 attempts over about three days.

/** How far a retry may move from its scheduled delay, either way. */
export const RETRY_JITTER = 0.2;

/**
 * The time of the attempt after failed attempt number `attemptNumber` (1-based), or null when the schedule is over.
 * `random` is Math.random's range [0, 1); injectable for tests.
 */
export function nextAttemptAt(
  attemptNumber: number,
  failedAt: Date,
  scheduleSeconds: readonly number[],
  random: () => number = Math.random,
): Date | null {
  const delaySeconds = scheduleSeconds[attemptNumber - 1];
  if (delaySeconds === undefined) return null;
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return new Date(failedAt.getTime() + Math.round(delaySeconds * 1000 * factor));
}

/** Attempts a delivery gets in all: the first and one per schedule entry. */
export function maxAttempts(scheduleSeconds: readonly number[]): number {
  return scheduleSeconds.length + 1;
}
