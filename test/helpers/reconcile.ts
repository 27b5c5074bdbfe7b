// Driving the reconciler (server/domain/reconcile/) in the HTTP tests of the card families: through every attempt while
// the provider cannot answer, to the last one, where the handler gives up.
import { expect } from "vitest";
import type { Queryable } from "../../server/db/kysely.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { RECONCILE_MAX_ATTEMPTS, reconcileDueIntents } from "../../server/domain/reconcile/reconcile-intents.ts";

/**
 * Runs `handler` with a lookup that fails with `error` on the open intent of `resourceId`: each attempt but the last is
 * retried (the intent records the error and is due again after its backoff), and the last gives up. Starts a minute
 * ahead, past every deadline of the test's requests.
 */
export async function reconcileUntilGivenUp(
  db: Queryable,
  options: { handler: IntentHandler; resourceId: string; error: string; reconcileAfterSeconds: number },
): Promise<void> {
  const down: IntentHandler = {
    ...options.handler,
    lookup: async () => {
      throw new Error(options.error);
    },
  };
  const run = (at: number) =>
    reconcileDueIntents(db, {
      now: new Date(at),
      reconcileAfterSeconds: options.reconcileAfterSeconds,
      handlers: new Map([[down.family, down]]),
    });
  let at = Date.now() + 60_000;
  for (let attempt = 1; attempt < RECONCILE_MAX_ATTEMPTS; attempt++) {
    expect(await run(at)).toMatchObject({ retried: 1 });
    const intent = await db.selectFrom("ProviderIntent").selectAll().where("resourceId", "=", options.resourceId).executeTakeFirst();
    if (!intent) throw new Error("the intent is gone");
    expect(intent.lastError).toBe(options.error);
    at = intent.dueAt.getTime();
  }
  expect(await run(at)).toMatchObject({ gaveUp: 1 });
}
