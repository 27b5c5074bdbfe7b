// Sign-in with a member's email and password (POST /api/v2/agent/sessions); the session cookie is HttpOnly, so nothing
// here is stored by the page itself.
import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { api, unwrap } from "../api/client.ts";
import { useSession } from "../api/session.tsx";
import { checkForm } from "../components/form-check.ts";
import { ErrorState } from "../components/states.tsx";

export function SignIn() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { refresh } = useSession();
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
      await unwrap(
        api("sandbox").POST("/api/v2/agent/sessions", {
          body: { email: String(form.get("email")), password: String(form.get("password")) },
        }),
      );
      await refresh();
      const next = params.get("next");
      navigate(next?.startsWith("/") && !next.startsWith("//") ? next : "/sandbox/dashboard", { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="narrow" id="main">
      <h1>Sign in to Coinplane</h1>
      <form noValidate onSubmit={(e) => void submit(e)} className="stack">
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error ? <ErrorState error={error} /> : null}
    </main>
  );
}
