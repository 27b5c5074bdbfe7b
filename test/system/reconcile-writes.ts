// Helpers of test/system/provider-reconcile.test.ts (issue 26 on real processes): one provider write under its key,
// sent to an instance that SIGKILLs itself between the write's two commits (FAULT_INJECT), then replayed under the same
// key on the healed instances until the reconciler's final answer; and what reached a real webhook endpoint, per
// resource. Every family uses the same three, so a new family (card status, card limits) joins with its writes only.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { type ServerProcess, waitFor } from "../helpers/server-process.ts";
import { api } from "../helpers/test-server.ts";
import type { WebhookReceiver } from "../helpers/webhook-receiver.ts";

/** A provider write: its request and the key it is sent (and replayed) under; `id` the resource it writes, once known. */
export interface Write {
  id: string;
  path: string;
  body: Record<string, unknown>;
  key: string;
}

export type Rows = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;
export type Answer = Awaited<ReturnType<ReturnType<typeof api>>>;

export const write = (path: string, body: Record<string, unknown>, id = ""): Write => ({ id, path, body, key: randomUUID() });

export const send = (server: ServerProcess, apiKey: string, w: Write) =>
  api(server.url, apiKey)("POST", w.path, w.body, { "idempotency-key": w.key });

/** Sends `w` to an instance that SIGKILLs itself between its commits: the resource is left as the first commit recorded
 * it (`status` in `table`), its intent open and its key in progress. Returns the resource (`w.id` set from the intent
 * when the request created it). */
export async function crashWrite(
  rows: Rows,
  server: ServerProcess,
  apiKey: string,
  w: Write,
  table: string,
  status: string,
): Promise<string> {
  await expect(send(server, apiKey, w)).rejects.toThrow();
  expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
  const [intent] = await rows(
    `SELECT i."resourceId" FROM "ProviderIntent" i JOIN "IdempotencyRecord" r ON r.id = i."idempotencyRecordId" WHERE r.key = $1`,
    [w.key],
  );
  expect(intent, `${w.path}: an open intent under its key`).toBeDefined();
  if (w.id === "") w.id = intent?.resourceId as string;
  expect(intent?.resourceId).toBe(w.id);
  expect(await rows(`SELECT status FROM "${table}" WHERE id = $1`, [w.id])).toEqual([{ status }]);
  expect(await rows(`SELECT id FROM "ProviderIntent" WHERE "resourceId" = $1`, [w.id])).toHaveLength(1);
  expect(await rows(`SELECT state FROM "IdempotencyRecord" WHERE key = $1`, [w.key])).toEqual([{ state: "in_progress" }]);
  return w.id;
}

/** Replays each write's key on the instances (in turn) until it answers finally — not 409 (its intent open, the key
 * held) nor 202 (the unknown outcome replayed until the reconciler answers the key) — within `timeoutMs` in all. The
 * final answer is the key's replay (never a second execution of the write). */
export async function settle(instances: ServerProcess[], apiKey: string, writes: Write[], timeoutMs = 30_000): Promise<Map<Write, Answer>> {
  const finals = new Map<Write, Answer>();
  const deadline = Date.now() + timeoutMs;
  for (const [i, w] of writes.entries()) {
    const server = instances[i % instances.length] as ServerProcess;
    const settled = await waitFor(async () => {
      const res = await send(server, apiKey, w);
      if (res.status === 409 || res.status === 202) return false;
      finals.set(w, res);
      return true;
    }, deadline - Date.now());
    expect(settled, `${w.path} ${w.id} settled`).toBe(true);
    expect(finals.get(w)?.headers.get("idempotent-replayed"), `${w.path} ${w.id} replayed`).toBe("true");
  }
  return finals;
}

/** The resource a webhook's data names: a bank transfer's `id`, a custody resource's, a card's (before its
 * `programmeId`), a programme's. */
const resourceOf = (data: Record<string, unknown>) =>
  (data.id ?? data.custodyTransferId ?? data.custodyWalletId ?? data.cardId ?? data.programmeId ?? "") as string;

/** Waits until `path` of the receiver got every delivery `expected` names (sorted event types by resource id), lets a
 * second delivery of any of them land, then asserts exactly those arrived: one per state entered. */
export async function expectDeliveredOnce(receiver: WebhookReceiver, path: string, expected: Record<string, string[]>): Promise<void> {
  const deliveredTo = () => {
    const seen = new Map<string, string[]>();
    for (const r of receiver.at(path)) {
      const { type, data } = JSON.parse(r.body) as { type: string; data: Record<string, unknown> };
      const id = resourceOf(data);
      if (id in expected) seen.set(id, [...(seen.get(id) ?? []), type]);
    }
    return seen;
  };
  const total = Object.values(expected).flat().length;
  const delivered = await waitFor(() => [...deliveredTo().values()].flat().length >= total, 20_000);
  expect(delivered, `${[...deliveredTo().values()].flat().length} of ${total} deliveries`).toBe(true);
  await new Promise((r) => setTimeout(r, 300)); // a second delivery of an event would land now
  const seen = deliveredTo();
  for (const [id, types] of Object.entries(expected)) expect([...(seen.get(id) ?? [])].sort(), id).toEqual(types);
}
