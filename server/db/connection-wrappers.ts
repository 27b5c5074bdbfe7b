// The request path's driver wrappers (lazy-transaction.ts, statement-counter.ts) each wrap the driver's connection
// object. Every statement checks a connection out, so a wrapper is made once per connection object and found again at
// its next checkout — no allocation, no registration in Kysely's WeakSet, and no async function of its own per
// statement. Both drivers hand their connection objects out again (pg's pool; PGlite's idle list, pglite-dialect.ts).
//
// A checkout passes through every layer as one promise: each wrapper hands the layer below a function that wraps the
// connection, and the driver at the bottom applies them all before it settles its checkout (pg-pool-driver.ts), instead
// of each layer chaining a `then` of its own on the promise below.
import type { DatabaseConnection, Driver } from "kysely";

/** One settled promise for every driver step with nothing to wait for (a release, a BEGIN or COMMIT not sent): no
 * promise made per call. */
export const SETTLED: Promise<void> = Promise.resolve();

/** The map of a checkout that wraps nothing (a driver's own acquireConnection through its acquireMapped). */
export const unmapped = (connection: DatabaseConnection): DatabaseConnection => connection;

/** A driver that hands its connection through `map` before its checkout's promise settles. */
export interface MappedCheckout {
  acquireMapped<T>(map: (connection: DatabaseConnection) => T): Promise<T>;
}

/** `driver`'s checkout through `map`: in the driver's own promise when it offers that, else in a `then` of it. */
export function acquireMapped<T>(driver: Driver, map: (connection: DatabaseConnection) => T): Promise<T> {
  const mapped = (driver as Partial<MappedCheckout>).acquireMapped;
  return mapped ? (mapped.call(driver, map) as Promise<T>) : driver.acquireConnection().then(map);
}

/** One wrapper per driver connection, made by `wrap` on its first checkout and kept for it after; `reset`, when given,
 * clears what the previous holder left in it. */
export class ConnectionWrappers<W extends DatabaseConnection> {
  readonly #wrappers = new WeakMap<DatabaseConnection, W>();
  readonly #wrap: (inner: DatabaseConnection) => W;
  readonly #reset: ((wrapper: W) => void) | undefined;

  constructor(wrap: (inner: DatabaseConnection) => W, reset?: (wrapper: W) => void) {
    this.#wrap = wrap;
    this.#reset = reset;
  }

  /** `inner`'s wrapper, ready for its new holder. */
  readonly for = (inner: DatabaseConnection): W => {
    let wrapper = this.#wrappers.get(inner);
    if (!wrapper) {
      wrapper = this.#wrap(inner);
      this.#wrappers.set(inner, wrapper);
    }
    this.#reset?.(wrapper);
    return wrapper;
  };

  /** The checkout of a wrapper driver over `inner`: `inner`'s connection in its wrapper. */
  acquire(inner: Driver): Promise<W> {
    return acquireMapped(inner, this.for);
  }

  /** The same, then through `map` (a layer above's wrapping), in the same promise. */
  acquireThrough<T>(inner: Driver, map: (wrapper: W) => T): Promise<T> {
    return acquireMapped(inner, (connection) => map(this.for(connection)));
  }
}
