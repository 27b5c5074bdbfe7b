// A timeout for a network call (Redis, a provider) that a blocked event loop cannot fake. After the loop has been busy
// for longer than `ms` (a route's first validator compile, a solc compile), Node runs due timers before it reads the
// sockets, so a plain timer — ioredis's commandTimeout included — rejected calls whose reply was already waiting: a
// healthy Redis answered 503 RATE_LIMIT_UNAVAILABLE. Here the timer only schedules the verdict for after the next poll
// phase (setImmediate), by which time a reply that has arrived has settled the call.
export class IoTimeoutError extends Error {}

export function withIoTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new IoTimeoutError(`${what} did not answer within ${ms} ms`));
      });
    }, ms);
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
