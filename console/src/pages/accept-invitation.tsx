// The invitation link lands here: /console/accept-invitation#token=… (a fragment, so the token never reaches a server
// log or a Referer). The member sets a name and password, the console signs them in with it, and the dashboard opens.
import { type FormEvent, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { api, unwrap } from "../api/client.ts";
import { useSession } from "../api/session.tsx";
import { checkForm } from "../components/form-check.ts";
import { ErrorState } from "../components/states.tsx";

function readToken(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
}

export function AcceptInvitation() {
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [token, setToken] = useState(readToken);
  useEffect(() => {
    const onHashChange = () => setToken(readToken());
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, []);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    {
      const refused = checkForm(event.currentTarget);
      if (refused) return setError(refused);
    }
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      const password = String(form.get("password"));
      const member = (await unwrap(
        api("sandbox").POST("/api/v2/agent/member-invitations/accept", {
          body: { token, name: String(form.get("name")), password },
        }),
      )) as { email?: string; member?: { email?: string } };
      // Accepting makes the member; signing in with the password just set opens their session.
      const email = member.email ?? member.member?.email ?? "";
      await unwrap(api("sandbox").POST("/api/v2/agent/sessions", { body: { email, password } }));
      // The token has done its work: take it out of the address bar and the history entry.
      window.history.replaceState(null, "", window.location.pathname);
      await refresh();
      navigate("/sandbox/dashboard", { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="narrow" id="main">
      <h1>Join your organization on Coinplane</h1>
      {token ? (
        <form noValidate onSubmit={(e) => void submit(e)} className="stack">
          <label>
            Name
            <input name="name" autoComplete="name" required maxLength={100} />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="new-password" required minLength={12} />
          </label>
          <button type="submit" disabled={busy}>
            Accept invitation
          </button>
        </form>
      ) : (
        <p className="state error" role="alert">
          This page needs the invitation link you were sent (it carries the invitation token).
        </p>
      )}
      {error ? <ErrorState error={error} /> : null}
    </main>
  );
}
