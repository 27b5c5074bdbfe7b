import type { Tx } from "../../idempotency/idempotency-store.ts";

/** How long a card write waits for another writer's row lock before the attempt fails as a transient conflict (and is
 * retried, then answered 409). */
export const CARD_LOCK_TIMEOUT_MS = 5_000;

/** First statement of every card write transaction. */
export async function beginCardWrite(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${CARD_LOCK_TIMEOUT_MS}ms'`);
}
