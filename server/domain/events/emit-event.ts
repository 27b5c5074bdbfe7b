// The transactional outbox: an event is two deferred writes of the unit of work that makes the change (the Event row
// and its fan-out to the subscribed webhook endpoints), flushed in its one closing statement. So no event exists
// without its change, no change commits without its event, and emitting costs no statement of its own.

import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { precompiled } from "../../db/precompiled-query.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
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
  /** Written even when the work then fails with a business error (the event of a failure that stays on record, e.g.
   * contract.stage_failed). */
  keepOnError?: boolean;
}

interface FanOut extends Record<string, unknown> {
  eventId: string;
  eventType: EventType;
  organizationId: string;
  environment: string;
  createdAt: Date;
}

/** The deliveries of an event: one pending delivery per matching endpoint, due at once. The id is derived from (event,
 * endpoint) in SQL, so the fan-out needs no read; it sees the endpoints as of the closing statement's snapshot. It is
 * precompiled, in two shapes (every write of every hot path emits an event): to the endpoints subscribed to the type
 * (or to every type), or to one endpoint whatever its enabled events (its test event). */
function deliveries(db: Kysely<DB>, p: FanOut & { endpointId?: string }, toOneEndpoint: boolean) {
  return db
    .insertInto("WebhookDelivery")
    .columns(["id", "endpointId", "eventId", "organizationId", "environment", "eventType", "status", "nextAttemptAt", "createdAt"])
    .expression((eb) =>
      // eb, not db: when this is the closing statement's last write, db carries its WITH clauses, which the subquery
      // must not repeat.
      eb
        .selectFrom("WebhookEndpoint as we")
        .select([
          sql<string>`'wdl_' || substr(md5(${p.eventId}::text || we.id), 1, 22)`.as("id"),
          "we.id as endpointId",
          sql<string>`${p.eventId}::text`.as("eventId"),
          "we.organizationId",
          "we.environment",
          sql<string>`${p.eventType}::text`.as("eventType"),
          sql<string>`'pending'`.as("status"),
          sql<Date>`${p.createdAt}::timestamptz`.as("nextAttemptAt"),
          sql<Date>`${p.createdAt}::timestamptz`.as("createdAt"),
        ])
        .where(ownedBy(p, "we"))
        .where("we.status", "=", "enabled")
        .$if(toOneEndpoint, (q) => q.where("we.id", "=", p.endpointId as string))
        .$if(!toOneEndpoint, (q) =>
          q.where((w) => w.or([sql<boolean>`${p.eventType}::text = ANY(we."enabledEvents")`, sql<boolean>`'*' = ANY(we."enabledEvents")`])),
        ),
    );
}

const fanOut = precompiled((db, p: FanOut) => deliveries(db, p, false));
const fanOutToEndpoint = precompiled((db, p: FanOut & { endpointId: string }) => deliveries(db, p, true));

let lastCreatedAt = 0;
/** The last event time of each unit of work at a chosen time (below): their events are ordered within it. */
const lastChosenAt = new WeakMap<object, number>();

/** A unit of work whose clock is further than this from the wall clock runs at a chosen time (a job driven at a given
 * moment, e.g. the reconciler run a minute ahead by a test), not at "now". A request's clock is never that far: a
 * two-transaction write's second transaction keeps its first's, at most the provider timeout (15 s) behind. */
export const CHOSEN_TIME_MS = 30_000;

/**
 * The unit of work's clock, made strictly increasing per process: a resource's events sort in the order they happened
 * even when they share a clock (two events of one transaction; a two-transaction write's second transaction keeps its
 * first's clock). It runs ahead of the request clock only by 1 ms per event emitted within the same millisecond. A unit
 * of work at a chosen time (`scope`, the unit of work) orders its own events the same way but leaves the process's
 * clock alone: were it to move it, every later event of the process would carry that time, and deliveries due "now"
 * would wait for it.
 */
export function eventClock(now: Date, scope: object): Date {
  const t = now.getTime();
  if (Math.abs(t - Date.now()) > CHOSEN_TIME_MS) {
    const at = Math.max(t, (lastChosenAt.get(scope) ?? Number.NEGATIVE_INFINITY) + 1);
    lastChosenAt.set(scope, at);
    return new Date(at);
  }
  lastCreatedAt = Math.max(t, lastCreatedAt + 1);
  return new Date(lastCreatedAt);
}

/** Appends the event and its deliveries to the unit of work; returns the event id and createdAt. */
export function emitEvent(uow: UnitOfWork, e: EventInput): EmittedEvent {
  const options = { keepOnError: e.keepOnError };
  const id = newId("evt");
  const createdAt = eventClock(uow.now, uow);
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
  // One pending delivery per enabled endpoint subscribed to the type, due at once (see fanOut).
  const fanOutValues = { eventId: id, eventType: e.type, organizationId: e.organizationId, environment: e.environment, createdAt };
  if (e.onlyEndpointId === undefined) uow.deferPrecompiled(fanOut, fanOutValues, options);
  else uow.deferPrecompiled(fanOutToEndpoint, { ...fanOutValues, endpointId: e.onlyEndpointId }, options);
  return { id, createdAt };
}
