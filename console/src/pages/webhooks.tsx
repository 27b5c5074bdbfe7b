// Webhook endpoints: create one (secret shown once), edit its event types, disable / enable, rotate the secret, send
// a test event; each delivery with its attempts (status codes, durations) and a retry button.
import { type FormEvent, useState } from "react";
import { Link, useParams } from "react-router";
import type { components } from "../../../sdk/src/generated/openapi.ts";
import { api, idempotencyKey, unwrap } from "../api/client.ts";
import { loadSpec } from "../api/spec.ts";
import { useLoad } from "../api/use-load.ts";
import { usePages } from "../api/use-pages.ts";
import { CopyButton, Dialog } from "../components/dialog.tsx";
import { checkForm, FormRefusal } from "../components/form-check.ts";
import { StreamedTable, when } from "../components/list.tsx";
import { useEnvironment } from "../components/shell.tsx";
import { ErrorState, Loading } from "../components/states.tsx";

type Endpoint = components["schemas"]["WebhookEndpoint"];
type Delivery = components["schemas"]["WebhookDelivery"];
type EnabledEvents = components["schemas"]["EnabledEvents"];

function EventTypeChoice({ selected }: { selected: string[] }) {
  const spec = useLoad(loadSpec, []);
  const types = (spec.state === "ok" ? (spec.data.components.schemas.EventType?.enum ?? []) : []) as string[];
  return (
    <fieldset className="event-types">
      <legend>Event types</legend>
      <label className="checkbox">
        <input type="checkbox" name="event" value="*" defaultChecked={selected.includes("*")} />
        Every type (*)
      </label>
      {types.map((t) => (
        <label key={t} className="checkbox">
          <input type="checkbox" name="event" value={t} defaultChecked={selected.includes(t)} />
          {t}
        </label>
      ))}
    </fieldset>
  );
}

function SecretDialog({ secret, onClose }: { secret: string | null; onClose(): void }) {
  return (
    <Dialog title="Signing secret" open={secret !== null} onClose={onClose}>
      <p>Copy the signing secret now: it is shown this once.</p>
      <p>
        <code className="secret">{secret}</code>
      </p>
      <CopyButton text={secret ?? ""} label="Copy secret" />
    </Dialog>
  );
}

export function Webhooks() {
  const environment = useEnvironment();
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const pages = usePages(
    async (cursor) => {
      const body = await unwrap(
        api(environment).GET("/api/v2/agent/webhook-endpoints", {
          params: { query: { limit: 25, ...(cursor ? { startingAfter: cursor } : {}) } },
        }),
      );
      return { items: body.data, next: body.hasMore ? body.nextCursor : null };
    },
    [environment],
  );
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    {
      const refused = checkForm(event.currentTarget);
      if (refused) return setError(refused);
    }
    const target = event.currentTarget;
    const form = new FormData(target);
    if (form.getAll("event").length === 0) return setError(new FormRefusal("Choose at least one event type."));
    setError(undefined);
    try {
      const description = String(form.get("description") ?? "").trim();
      const created = await unwrap(
        api(environment).POST("/api/v2/agent/webhook-endpoints", {
          body: {
            url: String(form.get("url")),
            enabledEvents: form.getAll("event").map(String) as EnabledEvents,
            ...(description ? { description } : {}),
          },
          params: { header: { "Idempotency-Key": idempotencyKey() } },
        }),
      );
      setSecret(created.secret);
      target.reset();
      pages.reload();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <h1>Webhooks</h1>
      <form noValidate className="card stack" onSubmit={(e) => void create(e)} aria-labelledby="new-endpoint">
        <h2 id="new-endpoint">New endpoint</h2>
        <label>
          URL
          <input name="url" type="url" required placeholder="https://hooks.example.com/coinplane" />
        </label>
        <label>
          Description
          <input name="description" maxLength={200} />
        </label>
        <EventTypeChoice selected={["*"]} />
        <button type="submit" className="primary">
          Create endpoint
        </button>
        {error ? <ErrorState error={error} needs="developer" /> : null}
      </form>
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <h2>Endpoints</h2>
      <StreamedTable
        pages={pages}
        what="endpoints"
        caption="Webhook endpoints"
        needs="viewer"
        rowKey={(e: Endpoint) => e.id}
        columns={[
          { header: "URL", cell: (e) => <Link to={`/${environment}/webhooks/${e.id}`}>{e.url}</Link> },
          { header: "Status", cell: (e) => (e.status === "disabled" ? `disabled (${e.disabledReason})` : e.status) },
          { header: "Event types", cell: (e) => e.enabledEvents.join(", ") },
          { header: "Created", cell: (e) => when(e.createdAt) },
        ]}
      />
    </>
  );
}

function Deliveries({ endpointId, refreshKey }: { endpointId: string; refreshKey: number }) {
  const environment = useEnvironment();
  const [error, setError] = useState<unknown>();
  const pages = usePages(
    async (cursor) => {
      const body = await unwrap(
        api(environment).GET("/api/v2/agent/webhook-endpoints/{endpointId}/deliveries", {
          params: { path: { endpointId }, query: { limit: 25, ...(cursor ? { startingAfter: cursor } : {}) } },
        }),
      );
      return { items: body.data, next: body.hasMore ? body.nextCursor : null };
    },
    [environment, endpointId, refreshKey],
  );
  async function retry(delivery: Delivery) {
    setError(undefined);
    try {
      await unwrap(
        api(environment).POST("/api/v2/agent/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry", {
          params: { path: { endpointId, deliveryId: delivery.id } },
          headers: { "Idempotency-Key": idempotencyKey() },
        } as never),
      );
      pages.reload();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      {error ? <ErrorState error={error} needs="developer" /> : null}
      <StreamedTable
        pages={pages}
        what="deliveries"
        caption="Deliveries"
        needs="viewer"
        rowKey={(d: Delivery) => d.id}
        columns={[
          {
            header: "Event",
            cell: (d) => (
              <Link to={`/${environment}/events/${d.eventId}`}>
                <code>{d.eventType}</code>
              </Link>
            ),
          },
          { header: "Status", cell: (d) => d.status },
          {
            header: "Attempts",
            cell: (d) => (
              <ol className="attempts">
                {d.attempts.map((a) => (
                  <li key={a.attemptNumber}>
                    {when(a.attemptedAt)}: {a.httpStatus ?? a.error ?? "—"} in {a.durationMs} ms
                  </li>
                ))}
              </ol>
            ),
          },
          {
            header: "Retry",
            cell: (d) =>
              d.status === "failed" ? (
                <button type="button" aria-label={`Retry delivery ${d.id}`} onClick={() => void retry(d)}>
                  Retry
                </button>
              ) : (
                "—"
              ),
          },
        ]}
      />
    </section>
  );
}

export function WebhookDetail() {
  const environment = useEnvironment();
  const { id = "" } = useParams();
  const [secret, setSecret] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const [refreshKey, setRefreshKey] = useState(0);
  const endpoint = useLoad(
    () => unwrap(api(environment).GET("/api/v2/agent/webhook-endpoints/{endpointId}", { params: { path: { endpointId: id } } })),
    [environment, id],
  );
  async function act(run: () => Promise<unknown>, done: string) {
    setError(undefined);
    setMessage(null);
    try {
      await run();
      setMessage(done);
      endpoint.reload();
      setRefreshKey((k) => k + 1);
    } catch (err) {
      setError(err);
    }
  }
  const client = api(environment);
  const path = { params: { path: { endpointId: id } } };
  async function saveTypes(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    {
      const refused = checkForm(event.currentTarget);
      if (refused) return setError(refused);
    }
    const types = new FormData(event.currentTarget).getAll("event").map(String) as EnabledEvents;
    if (types.length === 0) return setError(new FormRefusal("Choose at least one event type."));
    await act(
      () => unwrap(client.PATCH("/api/v2/agent/webhook-endpoints/{endpointId}", { ...path, body: { enabledEvents: types } })),
      "Event types saved.",
    );
  }
  if (endpoint.state === "loading") return <Loading what="the endpoint" />;
  if (endpoint.state === "error") return <ErrorState error={endpoint.error} retry={endpoint.reload} needs="viewer" />;
  const e = endpoint.data;
  return (
    <>
      <p>
        <Link to={`/${environment}/webhooks`}>Webhooks</Link> / {id}
      </p>
      <h1>Endpoint {e.url}</h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd>{e.status === "disabled" ? `disabled (${e.disabledReason})` : e.status}</dd>
        <dt>Description</dt>
        <dd>{e.description ?? "—"}</dd>
        <dt>Secret rotation</dt>
        <dd>{e.secretRotation ? `previous secret valid until ${when(e.secretRotation.previousSecretExpiresAt)}` : "—"}</dd>
      </dl>
      <div className="row-actions">
        <button
          type="button"
          onClick={() =>
            void act(
              () =>
                unwrap(
                  client.PATCH("/api/v2/agent/webhook-endpoints/{endpointId}", { ...path, body: { enabled: e.status !== "enabled" } }),
                ),
              e.status === "enabled" ? "Endpoint disabled." : "Endpoint enabled.",
            )
          }
        >
          {e.status === "enabled" ? "Disable" : "Enable"}
        </button>
        <button
          type="button"
          onClick={() =>
            void act(async () => {
              const rotated = await unwrap(
                client.POST("/api/v2/agent/webhook-endpoints/{endpointId}/rotate-secret", {
                  ...path,
                  body: {},
                  headers: { "Idempotency-Key": idempotencyKey() },
                } as never),
              );
              setSecret((rotated as { secret: string }).secret);
            }, "Secret rotated.")
          }
        >
          Rotate secret
        </button>
        <button
          type="button"
          onClick={() =>
            void act(
              () =>
                unwrap(
                  client.POST("/api/v2/agent/webhook-endpoints/{endpointId}/test", {
                    ...path,
                    headers: { "Idempotency-Key": idempotencyKey() },
                  } as never),
                ),
              "Test event sent.",
            )
          }
        >
          Send test event
        </button>
      </div>
      {message ? (
        <p role="status" className="ok">
          {message}
        </p>
      ) : null}
      {error ? <ErrorState error={error} needs="developer" /> : null}
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <form noValidate className="card stack" onSubmit={(ev) => void saveTypes(ev)} key={e.updatedAt}>
        <EventTypeChoice selected={e.enabledEvents} />
        <button type="submit">Save event types</button>
      </form>
      <Deliveries endpointId={id} refreshKey={refreshKey} />
    </>
  );
}
