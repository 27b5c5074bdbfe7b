// API keys (account settings): create one (environment, scopes grouped by resource, label, spending limits per asset)
// and see its secret once; the list with prefix, scopes, spending limits, creator (the member's name and email, from the
// members list) and last use; revoke with a confirmation.
import { type FormEvent, useRef, useState } from "react";
import { api, type Environment, unwrap } from "../api/client.ts";
import { type Creator, creatorOf, type MemberName } from "../api/key-creator.ts";
import { type CreatedKey, createKey, describeLimit, type SpendingLimit, type SpendingLimitInput, scopeGroups } from "../api/keys.ts";
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
  spendingLimits: SpendingLimit[];
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
    spendingLimits: Array.isArray(k.spendingLimits) ? (k.spendingLimits as SpendingLimit[]) : [],
    creator: creatorOf(k.createdBy, k.actor, members),
    lastUsedAt: typeof k.lastUsedAt === "string" ? k.lastUsedAt : "",
    revokedAt: typeof k.revokedAt === "string" ? k.revokedAt : "",
  };
}

/** The form's limit rows: a row whose asset is empty is left out; an amount left empty is no limit of that kind. */
function readLimits(form: FormData, rows: number): SpendingLimitInput[] {
  const limits: SpendingLimitInput[] = [];
  for (let i = 0; i < rows; i++) {
    const asset = String(form.get(`limit-asset-${i}`) ?? "")
      .trim()
      .toUpperCase();
    if (!asset) continue;
    const perCall = String(form.get(`limit-per-call-${i}`) ?? "").trim();
    const per24h = String(form.get(`limit-per-24h-${i}`) ?? "").trim();
    limits.push({ asset, ...(perCall ? { perCall } : {}), ...(per24h ? { per24h } : {}) });
  }
  return limits;
}

/** Spending limits per asset or currency: what an agent's key may move per call and per rolling 24 hours. */
function SpendingLimitFields({ rows, onAdd }: { rows: number; onAdd(): void }) {
  return (
    <fieldset className="stack">
      <legend>Spending limits</legend>
      <p className="muted">
        Optional. A key with limits moves at most this much per call and per 24 hours of each asset or currency listed, and nothing of any
        other.
      </p>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are only ever added, never reordered or removed
        <div key={i} className="limit-row">
          <label>
            {`Limit ${i + 1} asset`}
            <input name={`limit-asset-${i}`} maxLength={12} placeholder="USDC" pattern="[A-Za-z0-9]{2,12}" />
          </label>
          <label>
            {`Limit ${i + 1} per call`}
            <input name={`limit-per-call-${i}`} inputMode="decimal" placeholder="100" />
          </label>
          <label>
            {`Limit ${i + 1} per 24 hours`}
            <input name={`limit-per-24h-${i}`} inputMode="decimal" placeholder="1000" />
          </label>
        </div>
      ))}
      <button type="button" onClick={onAdd} disabled={rows >= 16}>
        Add a spending limit
      </button>
    </fieldset>
  );
}

function CreateKeyForm({ onCreated }: { onCreated(key: CreatedKey): void }) {
  const current = useEnvironment();
  const spec = useLoad(loadSpec, []);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [limitRows, setLimitRows] = useState(1);
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
      onCreated(
        await createKey(
          String(form.get("environment")) as Environment,
          scopes,
          String(form.get("label") || "Console key"),
          readLimits(form, limitRows),
        ),
      );
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
      <SpendingLimitFields rows={limitRows} onAdd={() => setLimitRows((n) => n + 1)} />
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
            header: "Spending limits",
            cell: (k) =>
              k.spendingLimits.length > 0 ? (
                <span className="lines">
                  {k.spendingLimits.map((l) => (
                    <span key={l.asset}>{describeLimit(l)}</span>
                  ))}
                </span>
              ) : (
                "none"
              ),
          },
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
