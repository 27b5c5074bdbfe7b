// The reconciler as the HTTP tests of a reconcilable write drive it (test/http/custody-*-reconcile.test.ts): directly,
// at a chosen time, with the provider down, and the state a crash between the write's two commits leaves its key in.
import { expect } from "vitest";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { RECONCILE_MAX_ATTEMPTS, reconcileDueIntents } from "../../server/domain/reconcile/reconcile-intents.ts";
import type { TestServer } from "./test-server.ts";

/** Runs the reconciler with `handler` while its provider cannot answer (`error`) through every attempt on the intent of
 * `resourceId`: asked again after each backoff (its last error recorded), then given up after the last attempt. */
export async function reconcileWithProviderDown(
  server: TestServer,
  options: { handler: IntentHandler; resourceId: string; error: string; reconcileAfterSeconds: number },
): Promise<void> {
  const down: IntentHandler = {
    ...options.handler,
    lookup: async () => {
      throw new Error(options.error);
    },
  };
  const handlers = new Map([[down.family, down]]);
  const run = (at: number) =>
    reconcileDueIntents(server.db.kysely, { now: new Date(at), reconcileAfterSeconds: options.reconcileAfterSeconds, handlers });
  let at = Date.now() + 60_000;
  for (let attempt = 1; attempt < RECONCILE_MAX_ATTEMPTS; attempt++) {
    expect(await run(at)).toMatchObject({ retried: 1 });
    const intent = await server.db.kysely
      .selectFrom("ProviderIntent")
      .selectAll()
      .where("resourceId", "=", options.resourceId)
      .executeTakeFirst();
    if (!intent) throw new Error("the intent is gone");
    expect(intent.lastError).toBe(options.error);
    at = intent.dueAt.getTime();
  }
  expect(await run(at)).toMatchObject({ gaveUp: 1 });
}

/** The key as a crash between its write's two commits leaves it: in progress, its lease ended, no answer stored. */
export async function strandKey(server: TestServer, key: string): Promise<void> {
  await server.db.kysely
    .updateTable("IdempotencyRecord")
    .set({ state: "in_progress", lockedUntil: new Date(Date.now() - 1_000), responseStatus: null, responseBody: null })
    .where("key", "=", key)
    .execute();
}
