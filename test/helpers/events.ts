// Reading the outbox in tests: the Event rows a flow wrote, straight from the test server's database.
import { expect } from "vitest";
import { mockData } from "../../sdk/src/generated/mock-data.ts";
import type { TestServer } from "./test-server.ts";

export interface StoredEvent {
  id: string;
  type: string;
  resourceId: string;
  organizationId: string;
  environment: string;
  data: unknown;
  simulated: boolean | null;
}

/** The events of a resource, oldest first (optionally of one type). */
export async function eventsOf(server: TestServer, resourceId: string, type?: string): Promise<StoredEvent[]> {
  const rows = await server.db.kysely
    .selectFrom("Event")
    .select(["id", "type", "resourceId", "organizationId", "environment", "data", "simulated"])
    .where("resourceId", "=", resourceId)
    .$if(type !== undefined, (q) => q.where("type", "=", type as string))
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows as StoredEvent[];
}

/** Exactly one `type` event for the resource, whose data is `data` (what the resource's GET answered at that moment). */
export async function expectOneEvent(
  server: TestServer,
  type: string,
  resourceId: string,
  data: unknown,
  extra: { simulated?: boolean | null; organizationId?: string; environment?: string } = {},
): Promise<StoredEvent> {
  const events = await eventsOf(server, resourceId, type);
  // The ids in the message: a duplicate (a write executed twice) is then found in the outbox by its ids.
  expect(events, `${type} events of ${resourceId}: ${events.map((e) => e.id).join(", ")}`).toHaveLength(1);
  const [event] = events as [StoredEvent];
  expect(event.data).toEqual(data);
  if ("simulated" in extra) expect(event.simulated).toBe(extra.simulated);
  if (extra.organizationId) expect(event.organizationId).toBe(extra.organizationId);
  if (extra.environment) expect(event.environment).toBe(extra.environment);
  return event;
}

/** The types of a resource's events, oldest first. */
export async function eventTypesOf(server: TestServer, resourceId: string): Promise<string[]> {
  return (await eventsOf(server, resourceId)).map((e) => e.type);
}

/** A `data` valid for the event type (the spec's sample, as the mock sends it): an event written straight to the outbox
 * must still match its `WebhookEvent` branch, since the test server validates every response against the contract. */
export function sampleEventData(type: string): unknown {
  const entry = mockData.webhooks?.find((w) => w.type === type);
  if (!entry) throw new Error(`no sample data for event type ${type}`);
  return structuredClone(mockData.values[entry.data]);
}
