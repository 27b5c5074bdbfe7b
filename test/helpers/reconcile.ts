// Drives the reconciler (issue 26) through every attempt of one intent while its provider cannot answer: each run backs
// off (the intent not due again before its backoff, the provider's error kept as `lastError`), and the last gives up.
// Shared by the per-family reconcile tests (test/http/*-reconcile.test.ts).
import { expect } from "vitest";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { RECONCILE_MAX_ATTEMPTS, reconcileDueIntents } from "../../server/domain/reconcile/reconcile-intents.ts";
import { providerReconcileJob } from "../../server/scheduler/provider-reconcile-job.ts";

export async function reconcileUntilGiveUp(
  db: Parameters<typeof reconcileDueIntents>[0],
  options: { handler: IntentHandler; resourceId: string; providerError: string; reconcileAfterSeconds: number },
): Promise<void> {
  const down: IntentHandler = {
    ...options.handler,
    lookup: async () => {
      throw new Error(options.providerError);
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
    // Not due again before its backoff.
    expect((await run(at + 500)).claimed).toBe(0);
    const intent = await db.selectFrom("ProviderIntent").selectAll().where("resourceId", "=", options.resourceId).executeTakeFirst();
    if (!intent) throw new Error("the intent is gone");
    expect(intent.lastError).toBe(options.providerError);
    at = intent.dueAt.getTime();
  }
  expect(await run(at)).toMatchObject({ gaveUp: 1 });
}

/** The key as a crash between its write's two commits leaves it: in progress, its lease ended, no answer stored. */
export async function strandKey(db: Parameters<typeof reconcileDueIntents>[0], key: string): Promise<void> {
  await db
    .updateTable("IdempotencyRecord")
    .set({ state: "in_progress", lockedUntil: new Date(Date.now() - 1_000), responseStatus: null, responseBody: null })
    .where("key", "=", key)
    .execute();
}

/** A reconciler run as the scheduler's, at a time past every deadline (no request of the calling file is in flight
 * then): every open intent is due. */
export function reconcilePastDeadlines(db: Parameters<typeof reconcileDueIntents>[0], reconcileAfterSeconds: number) {
  return providerReconcileJob({ db, reconcileAfterSeconds }).runAt(new Date(Date.now() + 60_000));
}

/** The open intents on a resource. */
export function intentsOnResource(db: Parameters<typeof reconcileDueIntents>[0], resourceId: string) {
  return db.selectFrom("ProviderIntent").selectAll().where("resourceId", "=", resourceId).execute();
}
