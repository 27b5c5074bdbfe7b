// The transactional outbox: an event is two deferred writes of the unit of work that makes the change (the Event row
// and its fan-out to the subscribed webhook endpoints), flushed in its one closing statement. So no event exists
// without its change, no change commits without its event, and emitting costs no statement of its own.

import { sql } from "kysely";
import type { UnitOfWork } from "../../db/unit-of-work.ts";
import { newId } from "../../lib/ids.ts";
import type { EventType } from "./event-types.ts";

/** The event as recorded: its id and the createdAt it carries (the list, GET and every delivery show the same). */
export interface EmittedEvent {
  id: string;
  createdAt: Date;
}

export interface EventInput {
  organizationId: string;
  environment: string;
  type: EventType;
  /** The id of the resource in `data`. */
  resourceId: string;
  /** The resource exactly as its GET returns it. */
  data: unknown;
  /** true where a sandbox simulator acted. */
  simulated?: boolean;
  /** Deliver to this endpoint only (the endpoint's test event), whatever its enabled events. */
  onlyEndpointId?: string;
}

let lastCreatedAt = 0;

/**
 * The unit of work's clock, made strictly increasing per process: a resource's events sort in the order they happened
 * even when they share a clock (two events of one transaction; a two-transaction write's second transaction keeps its
 * first's clock). It runs ahead of the request clock only by 1 ms per event emitted within the same millisecond.
 */
function eventClock(now: Date): Date {
  lastCreatedAt = Math.max(now.getTime(), lastCreatedAt + 1);
  return new Date(lastCreatedAt);
}

/** Appends the event and its deliveries to the unit of work; returns the event id and createdAt. `keepOnError`: written even when the
 * work then fails with a business error (the event of a failure that stays on record, e.g. contract.stage_failed). */
export function emitEvent(uow: UnitOfWork, e: EventInput, options: { keepOnError?: boolean } = {}): EmittedEvent {
  const id = newId("evt");
  const createdAt = eventClock(uow.now);
  uow.insertLater(
    "Event",
    {
      id,
      organizationId: e.organizationId,
      environment: e.environment,
      type: e.type,
      resourceId: e.resourceId,
      data: JSON.stringify(e.data),
      simulated: e.simulated ?? null,
      createdAt,
    },
    options,
  );
  // One pending delivery per enabled endpoint subscribed to the type, due at once. The id is derived from (event,
  // endpoint) in SQL, so the fan-out needs no read; the CTE sees the endpoints as of the statement's snapshot.
  uow.deferLater(
    (db) =>
      db
        .insertInto("WebhookDelivery")
        .columns(["id", "endpointId", "eventId", "organizationId", "environment", "eventType", "status", "nextAttemptAt", "createdAt"])
        .expression((eb) =>
          // eb, not db: the subquery must not repeat the flush statement's WITH clauses.
          eb
            .selectFrom("WebhookEndpoint as we")
            .select([
              sql<string>`'wdl_' || substr(md5(${id}::text || we.id), 1, 22)`.as("id"),
              "we.id as endpointId",
              sql<string>`${id}::text`.as("eventId"),
              "we.organizationId",
              "we.environment",
              sql<string>`${e.type}::text`.as("eventType"),
              sql<string>`'pending'`.as("status"),
              sql<Date>`${createdAt}::timestamptz`.as("nextAttemptAt"),
              sql<Date>`${createdAt}::timestamptz`.as("createdAt"),
            ])
            .where("we.organizationId", "=", e.organizationId)
            .where("we.environment", "=", e.environment)
            .where("we.status", "=", "enabled")
            .$if(e.onlyEndpointId !== undefined, (q) => q.where("we.id", "=", e.onlyEndpointId as string))
            .$if(e.onlyEndpointId === undefined, (q) =>
              q.where((w) => w.or([sql<boolean>`${e.type}::text = ANY(we."enabledEvents")`, sql<boolean>`'*' = ANY(we."enabledEvents")`])),
            ),
        ),
    options,
  );
  return { id, createdAt };
}
