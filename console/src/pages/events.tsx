// The event log: type, resource and date filters (in the URL), each event's JSON on its own page; and the list of one
// resource's events that every detail page shows (listEvents?resourceId=).
import type { FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import type { components } from "../../../sdk/src/generated/openapi.ts";
import { api, unwrap } from "../api/client.ts";
import { loadSpec } from "../api/spec.ts";
import { useLoad } from "../api/use-load.ts";
import { usePages } from "../api/use-pages.ts";
import { Json } from "../components/dialog.tsx";
import { StreamedTable, when } from "../components/list.tsx";
import { useEnvironment } from "../components/shell.tsx";
import { ErrorState, Loading } from "../components/states.tsx";

type Event = components["schemas"]["Event"];
type EventType = components["schemas"]["EventType"];

function dayBound(date: string | null, endOfDay: boolean): string | undefined {
  if (!date) return undefined;
  return endOfDay ? `${date}T23:59:59.999Z` : `${date}T00:00:00.000Z`;
}

function useEventPages(filters: { type?: string; resourceId?: string; from?: string; to?: string }) {
  const environment = useEnvironment();
  return usePages(
    async (cursor) => {
      const body = await unwrap(
        api(environment).GET("/api/v2/agent/events", {
          params: {
            query: {
              limit: 25,
              ...(cursor ? { startingAfter: cursor } : {}),
              ...(filters.type ? { type: [filters.type as EventType] } : {}),
              ...(filters.resourceId ? { resourceId: filters.resourceId } : {}),
              ...(filters.from ? { createdAfter: dayBound(filters.from, false) } : {}),
              ...(filters.to ? { createdBefore: dayBound(filters.to, true) } : {}),
            },
          },
        }),
      );
      return { items: body.data, next: body.hasMore ? body.nextCursor : null };
    },
    [environment, filters.type, filters.resourceId, filters.from, filters.to],
  );
}

function EventTable({ pages, caption }: { pages: ReturnType<typeof useEventPages>; caption: string }) {
  const environment = useEnvironment();
  return (
    <StreamedTable
      pages={pages}
      what="events"
      caption={caption}
      needs="viewer"
      rowKey={(e: Event) => e.id}
      columns={[
        {
          header: "Type",
          cell: (e) => (
            <Link to={`/${environment}/events/${e.id}`}>
              <code>{e.type}</code>
            </Link>
          ),
        },
        { header: "Event", cell: (e) => <code>{e.id}</code> },
        { header: "Date", cell: (e) => when(e.createdAt) },
      ]}
    />
  );
}

export function ResourceEvents({ resourceId }: { resourceId: string }) {
  const pages = useEventPages({ resourceId });
  return (
    <section aria-labelledby="resource-events">
      <h2 id="resource-events">Events</h2>
      <EventTable pages={pages} caption={`Events of ${resourceId}`} />
    </section>
  );
}

export function Events() {
  const [params, setParams] = useSearchParams();
  const spec = useLoad(loadSpec, []);
  const types = (spec.state === "ok" ? (spec.data.components.schemas.EventType?.enum ?? []) : []) as string[];
  const filters = {
    type: params.get("type") ?? undefined,
    resourceId: params.get("resourceId") ?? undefined,
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
  };
  const pages = useEventPages(filters);
  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Record<string, string> = {};
    for (const name of ["type", "resourceId", "from", "to"]) {
      const value = String(form.get(name) ?? "").trim();
      if (value) next[name] = value;
    }
    setParams(next);
  }
  return (
    <>
      <h1>Events</h1>
      <form className="filters" onSubmit={apply} key={params.toString()}>
        <label>
          Type
          <select name="type" defaultValue={filters.type ?? ""}>
            <option value="">Any type</option>
            {types.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Resource id
          <input name="resourceId" defaultValue={filters.resourceId ?? ""} />
        </label>
        <label>
          From
          <input name="from" type="date" defaultValue={filters.from ?? ""} />
        </label>
        <label>
          To
          <input name="to" type="date" defaultValue={filters.to ?? ""} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <EventTable pages={pages} caption="Events" />
    </>
  );
}

export function EventDetail() {
  const environment = useEnvironment();
  const { id = "" } = useParams();
  const event = useLoad(
    () => unwrap(api(environment).GET("/api/v2/agent/events/{eventId}", { params: { path: { eventId: id } } })),
    [environment, id],
  );
  return (
    <>
      <p>
        <Link to={`/${environment}/events`}>Events</Link> / {id}
      </p>
      <h1>Event {event.state === "ok" ? <code>{event.data.type}</code> : null}</h1>
      {event.state === "loading" ? <Loading what="the event" /> : null}
      {event.state === "error" ? <ErrorState error={event.error} retry={event.reload} needs="viewer" /> : null}
      {event.state === "ok" ? <Json value={event.data} label="Event JSON" /> : null}
    </>
  );
}
