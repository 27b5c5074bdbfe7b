// The request path's driver wrappers (lazy-transaction.ts, statement-counter.ts) each wrap the driver's connection
// object. Every statement checks a connection out, so a wrapper is made once per connection object and found again at
// its next checkout — no allocation, no registration in Kysely's WeakSet, and no async function of its own per
// statement. Both drivers hand their connection objects out again (pg's pool; PGlite's idle list, pglite-dialect.ts).
import type { DatabaseConnection } from "kysely";

/** `acquire`'s connection in its wrapper, made by `wrap` on the connection's first checkout and kept for it after;
 * `reset`, when given, clears what the previous holder left in the wrapper. */
export function wrappedCheckout<W extends DatabaseConnection>(
  acquire: () => Promise<DatabaseConnection>,
  wrappers: WeakMap<DatabaseConnection, W>,
  wrap: (inner: DatabaseConnection) => W,
  reset?: (wrapper: W) => void,
): Promise<W> {
  return acquire().then((inner) => {
    let wrapper = wrappers.get(inner);
    if (!wrapper) {
      wrapper = wrap(inner);
      wrappers.set(inner, wrapper);
    }
    reset?.(wrapper);
    return wrapper;
  });
}
