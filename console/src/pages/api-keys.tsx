// API keys (account settings): create one (environment, scopes grouped by resource, label) and see its secret once;
// the list with prefix, scopes, creator (the member's name and email, from the members list) and last use; revoke with
// a confirmation.
import { type FormEvent, useRef, useState } from "react";
import { api, type Environment, unwrap } from "../api/client.ts";
import { type Creator, creatorOf, type MemberName } from "../api/key-creator.ts";
import { type CreatedKey, createKey, scopeGroups } from "../api/keys.ts";
import { loadMemberDirectory } from "../api/member-directory.ts";
import { loadSpec } from "../api/spec.ts";
import { useLoad } from "../api/use-load.ts";
import { usePages } from "../api/use-pages.ts";
import { CopyButton, Dialog } from "../components/dialog.tsx";
import { FormRefusal } from "../components/form-check.ts";
import { StreamedTable, when } from "../components/list.tsx";
import { useEnvironment } from "../components/shell.tsx";
import { ErrorState } from "../components/states.tsx";

type Loose = Record<string, unknown>;
export interface KeyRow {
  id: string;
  prefix: string;
  label: string;
  environment: string;
  scopes: string[];
  /** Who made it, as people read it. */
  creator: Creator;
  lastUsedAt: string;
  revokedAt: string;
}

export function readKey(raw: unknown, members: ReadonlyMap<string, MemberName>): KeyRow {
  const k = (raw ?? {}) as Loose;
  return {
    id: String(k.id ?? ""),
    prefix: String(k.prefix ?? ""),
    label: typeof k.label === "string" ? k.label : "",
    environment: String(k.environment ?? ""),
    scopes: Array.isArray(k.scopes) ? k.scopes.map(String) : [],
    creator: creatorOf(k.createdBy, k.actor, members),
    lastUsedAt: typeof k.lastUsedAt === "string" ? k.lastUsedAt : "",
    revokedAt: typeof k.revokedAt === "string" ? k.revokedAt : "",
  };
}

function CreateKeyForm({ onCreated }: { onCreated(key: CreatedKey): void }) {
  const current = useEnvironment();
  const spec = useLoad(loadSpec, []);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const scopes = form.getAll("scope").map(String);
    if (scopes.length === 0) {
      setError(new FormRefusal("Choose at least one scope."));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      onCreated(await createKey(String(form.get("environment")) as Environment, scopes, String(form.get("label") || "Console key")));
      event.currentTarget?.reset();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form noValidate className="card stack" onSubmit={(e) => void submit(e)} aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">New key</h2>
      <label>
        Environment
        <select name="environment" defaultValue={current}>
          <option value="sandbox">sandbox</option>
          <option value="production">production</option>
        </select>
      </label>
      <label>
        Label
        <input name="label" maxLength={100} placeholder="Payments backend" />
      </label>
      {spec.state === "ok" ? (
        <div className="scope-groups">
          {scopeGroups(spec.data).map((group) => (
            <fieldset key={group.resource}>
              <legend>{group.resource}</legend>
              {group.scopes.map((scope) => (
                <label key={scope} className="checkbox">
                  <input type="checkbox" name="scope" value={scope} />
                  {scope}
                </label>
              ))}
            </fieldset>
          ))}
        </div>
      ) : null}
      <button type="submit" className="primary" disabled={busy}>
        Create key
      </button>
      {error ? <ErrorState error={error} needs="developer or owner" /> : null}
    </form>
  );
}

export function ApiKeys() {
  const environment = useEnvironment();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<KeyRow | null>(null);
  const [revokeError, setRevokeError] = useState<unknown>();
  const directory = useRef(new Map<string, MemberName>());
  const pages = usePages(
    async (cursor) => {
      const [body, members] = await Promise.all([
        unwrap(
          api(environment).GET("/api/v2/agent/api-keys", {
            params: { query: { limit: 25, ...(cursor ? { startingAfter: cursor } : {}) } },
          }),
        ),
        // Read with the first page; a creator the list cannot name is shown by id, so the keys load even when the
        // members do not.
        cursor === null ? loadMemberDirectory(environment).catch(() => new Map<string, MemberName>()) : directory.current,
      ]);
      directory.current = members;
      return { items: body.data.map((k) => readKey(k, members)), next: body.hasMore ? body.nextCursor : null };
    },
    [environment, created],
  );

  async function revoke(key: KeyRow) {
    setRevokeError(undefined);
    try {
      await unwrap(api(environment).DELETE("/api/v2/agent/api-keys/{keyId}", { params: { path: { keyId: key.id } } } as never));
      setRevoking(null);
      pages.reload();
    } catch (err) {
      setRevokeError(err);
    }
  }

  return (
    <>
      <h1>API keys</h1>
      <CreateKeyForm onCreated={setCreated} />
      <Dialog title="Your new API key" open={created !== null} onClose={() => setCreated(null)}>
        <p>Copy the secret now: it is shown this once and cannot be read again.</p>
        <p>
          <code className="secret" data-testid="new-key-secret">
            {created?.secret}
          </code>
        </p>
        <CopyButton text={created?.secret ?? ""} label="Copy secret" />
      </Dialog>
      <Dialog title="Revoke this key?" open={revoking !== null} onClose={() => setRevoking(null)}>
        <p>
          Requests with <code>{revoking?.prefix}…</code> ({revoking?.label}) will be refused from now on. This cannot be undone.
        </p>
        <button type="button" className="danger" onClick={() => revoking && void revoke(revoking)}>
          Revoke
        </button>
        {revokeError ? <ErrorState error={revokeError} needs="developer or owner" /> : null}
      </Dialog>
      <h2>Keys</h2>
      <StreamedTable
        pages={pages}
        what="API keys"
        caption="API keys"
        needs="developer or owner"
        rowKey={(k) => k.id}
        columns={[
          { header: "Prefix", cell: (k) => <code>{k.prefix}</code> },
          { header: "Label", cell: (k) => k.label || "—" },
          { header: "Environment", cell: (k) => k.environment },
          { header: "Scopes", cell: (k) => k.scopes.join(", ") },
          {
            header: "Created by",
            cell: (k) => (
              <span className="lines">
                <span>{k.creator.name}</span>
                <span className="muted">{k.creator.detail}</span>
              </span>
            ),
          },
          { header: "Last used", cell: (k) => (k.lastUsedAt ? when(k.lastUsedAt) : "never") },
          {
            header: "Status",
            cell: (k) =>
              k.revokedAt ? (
                `revoked ${when(k.revokedAt)}`
              ) : (
                <button type="button" aria-label={`Revoke ${k.prefix}`} onClick={() => setRevoking(k)}>
                  Revoke
                </button>
              ),
          },
        ]}
      />
    </>
  );
}
