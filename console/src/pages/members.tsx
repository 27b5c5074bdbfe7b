// Members (account settings): invite (the link is shown once), change a role, remove; and the signed-in member's own
// second factor: TOTP enrolment with a QR code, then the recovery codes, shown once; or turning it off.
import { type FormEvent, useState } from "react";
import { api, unwrap } from "../api/client.ts";
import { useMember, useSession } from "../api/session.tsx";
import { loadSpec } from "../api/spec.ts";
import { useLoad } from "../api/use-load.ts";
import { usePages } from "../api/use-pages.ts";
import { CopyButton, Dialog } from "../components/dialog.tsx";
import { checkForm } from "../components/form-check.ts";
import { StreamedTable, when } from "../components/list.tsx";
import { QrCode } from "../components/qr.tsx";
import { useEnvironment } from "../components/shell.tsx";
import { ErrorState } from "../components/states.tsx";
import { DisableSecondFactor } from "./disable-second-factor.tsx";

type Loose = Record<string, unknown>;
interface MemberRow {
  id: string;
  email: string;
  name: string;
  role: string;
  totpEnabled: boolean;
  createdAt: string;
}

function readMember(raw: unknown): MemberRow {
  const m = (raw ?? {}) as Loose;
  return {
    id: String(m.id ?? m.memberId ?? ""),
    email: String(m.email ?? ""),
    name: String(m.name ?? ""),
    role: String(m.role ?? ""),
    totpEnabled: Boolean(m.totpEnabled ?? m.secondFactorEnabled),
    createdAt: String(m.createdAt ?? ""),
  };
}

function useRoles(): string[] {
  const spec = useLoad(loadSpec, []);
  const schemas = spec.state === "ok" ? spec.data.components.schemas : {};
  const named = schemas.MemberRole?.enum ?? schemas.Member?.properties?.role?.enum;
  return (named as string[] | undefined) ?? ["owner", "developer", "approver", "viewer"];
}

function Invite({ roles }: { roles: string[] }) {
  const environment = useEnvironment();
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    {
      const refused = checkForm(event.currentTarget);
      if (refused) return setError(refused);
    }
    const target = event.currentTarget;
    const form = new FormData(target);
    setError(undefined);
    try {
      const body = (await unwrap(
        api(environment).POST("/api/v2/agent/member-invitations", {
          body: { email: String(form.get("email")), role: String(form.get("role")) },
        } as never),
      )) as unknown as { invitationUrl?: string };
      setLink(body.invitationUrl ?? "");
      target.reset();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form noValidate className="card stack" onSubmit={(e) => void submit(e)} aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a member</h2>
      <label>
        Email of the person to invite
        <input name="email" type="email" required />
      </label>
      <label htmlFor="invite-role">Role</label>
      <select id="invite-role" name="role" defaultValue={roles.includes("developer") ? "developer" : roles[roles.length - 1]}>
        {roles.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <button type="submit" className="primary">
        Invite
      </button>
      {error ? <ErrorState error={error} needs="owner" /> : null}
      <Dialog title="Invitation link" open={link !== null} onClose={() => setLink(null)}>
        <p>Send this link to the person you invited. It is shown this once.</p>
        <p>
          <code className="secret">{link}</code>
        </p>
        <CopyButton text={link ?? ""} label="Copy link" />
      </Dialog>
    </form>
  );
}

function SecondFactor({ onChange }: { onChange(): void }) {
  const environment = useEnvironment();
  const member = useMember();
  const { refresh } = useSession();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUri: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>();
  async function begin() {
    setError(undefined);
    try {
      setEnrolment(
        (await unwrap(api(environment).POST("/api/v2/agent/members/me/totp" as never))) as { secret: string; otpauthUri: string },
      );
    } catch (err) {
      setError(err);
    }
  }
  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    {
      const refused = checkForm(event.currentTarget);
      if (refused) return setError(refused);
    }
    const code = String(new FormData(event.currentTarget).get("code"));
    setError(undefined);
    try {
      const body = (await unwrap(api(environment).POST("/api/v2/agent/members/me/totp/confirm" as never, { body: { code } } as never))) as {
        recoveryCodes?: string[];
      };
      setEnrolment(null);
      setCodes(body.recoveryCodes ?? []);
      await refresh();
      onChange();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <section className="card stack" aria-labelledby="totp-heading">
      <h2 id="totp-heading">Your second factor</h2>
      <p>
        {member.totpEnabled
          ? "An authenticator app is set up for your account."
          : "Approvals need a second factor: set up an authenticator app."}
      </p>
      {member.totpEnabled ? (
        // Replacing is disabling and setting up again: enrolment answers 409 while a factor is enrolled.
        <div className="actions">
          <DisableSecondFactor onDisabled={onChange} />
        </div>
      ) : !enrolment ? (
        <button type="button" onClick={() => void begin()}>
          Set up authenticator
        </button>
      ) : (
        <form noValidate className="stack" onSubmit={(e) => void confirm(e)}>
          <QrCode text={enrolment.otpauthUri} label="QR code for your authenticator app" />
          <p>
            Or enter this secret: <code className="secret">{enrolment.secret}</code>
          </p>
          <label>
            Code from the app
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
          </label>
          <button type="submit" className="primary">
            Confirm
          </button>
        </form>
      )}
      {error ? <ErrorState error={error} /> : null}
      <Dialog title="Recovery codes" open={codes !== null} onClose={() => setCodes(null)}>
        <p>Each code signs you in once if you lose the app. Keep them somewhere safe: they are shown this once.</p>
        <ul className="codes">
          {codes?.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <CopyButton text={(codes ?? []).join("\n")} label="Copy codes" />
      </Dialog>
    </section>
  );
}

export function Members() {
  const environment = useEnvironment();
  const me = useMember();
  const roles = useRoles();
  const [removing, setRemoving] = useState<MemberRow | null>(null);
  const [error, setError] = useState<unknown>();
  const pages = usePages(
    async (cursor) => {
      const body = (await unwrap(
        api(environment).GET(
          "/api/v2/agent/members" as never,
          { params: { query: { limit: 25, ...(cursor ? { startingAfter: cursor } : {}) } } } as never,
        ),
      )) as { data?: unknown[]; hasMore?: boolean; nextCursor?: string | null };
      return { items: (body.data ?? []).map(readMember), next: body.hasMore ? (body.nextCursor ?? null) : null };
    },
    [environment],
  );
  async function changeRole(member: MemberRow, role: string) {
    setError(undefined);
    try {
      await unwrap(
        api(environment).PATCH(
          "/api/v2/agent/members/{memberId}" as never,
          { params: { path: { memberId: member.id } }, body: { role } } as never,
        ),
      );
      pages.reload();
    } catch (err) {
      setError(err);
    }
  }
  async function remove(member: MemberRow) {
    setError(undefined);
    try {
      await unwrap(
        api(environment).DELETE("/api/v2/agent/members/{memberId}" as never, { params: { path: { memberId: member.id } } } as never),
      );
      setRemoving(null);
      pages.reload();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <h1>Members</h1>
      <SecondFactor onChange={pages.reload} />
      <Invite roles={roles} />
      <h2>Members of {me.organizationName}</h2>
      {error ? <ErrorState error={error} needs="owner" /> : null}
      <StreamedTable
        pages={pages}
        what="members"
        caption="Members"
        needs="owner"
        rowKey={(m) => m.id}
        columns={[
          { header: "Name", cell: (m) => m.name },
          { header: "Email", cell: (m) => m.email },
          {
            header: "Role",
            cell: (m) => (
              <select
                aria-label={`Role of ${m.email}`}
                value={m.role}
                disabled={m.id === me.memberId}
                onChange={(e) => void changeRole(m, e.target.value)}
              >
                {roles.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            ),
          },
          { header: "Second factor", cell: (m) => (m.totpEnabled ? "on" : "off") },
          { header: "Joined", cell: (m) => when(m.createdAt) },
          {
            header: "Remove",
            cell: (m) =>
              m.id === me.memberId ? (
                "you"
              ) : (
                <button type="button" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                  Remove
                </button>
              ),
          },
        ]}
      />
      <Dialog title="Remove this member?" open={removing !== null} onClose={() => setRemoving(null)}>
        <p>{removing?.email} loses access to the organization at once; their sessions end.</p>
        <button type="button" className="danger" onClick={() => removing && void remove(removing)}>
          Remove member
        </button>
      </Dialog>
    </>
  );
}
