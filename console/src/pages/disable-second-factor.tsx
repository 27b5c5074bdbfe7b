// Turning the second factor off (disableTotp): a confirmation that says what is lost. The server allows it only in a
// session that has verified the second factor (403 SECOND_FACTOR_REQUIRED otherwise), so a session that has not asks
// for a code (verifySessionSecondFactor) first, and a 403 that says so is shown in words with the field to fix it.
import { type FormEvent, useState } from "react";
import { ApiError, api, unwrap } from "../api/client.ts";
import { useMember, useSession } from "../api/session.tsx";
import { Dialog } from "../components/dialog.tsx";
import { checkForm } from "../components/form-check.ts";
import { useEnvironment } from "../components/shell.tsx";
import { ErrorState } from "../components/states.tsx";

const needsFactor = (err: unknown) => err instanceof ApiError && err.problem.code === "SECOND_FACTOR_REQUIRED";

export function DisableSecondFactor({ onDisabled }: { onDisabled(): void }) {
  const environment = useEnvironment();
  const member = useMember();
  const { refresh } = useSession();
  const [open, setOpen] = useState(false);
  const [askCode, setAskCode] = useState(!member.secondFactorVerified);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    {
      const refused = checkForm(event.currentTarget);
      if (refused) return setError(refused);
    }
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    setBusy(true);
    setError(undefined);
    try {
      if (code) {
        await unwrap(api(environment).POST("/api/v2/agent/sessions/current/second-factor", { body: { code } }));
      }
      await unwrap(api(environment).DELETE("/api/v2/agent/members/me/totp"));
      setOpen(false);
      await refresh();
      onDisabled();
    } catch (err) {
      if (needsFactor(err)) setAskCode(true);
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => {
          setError(undefined);
          setAskCode(!member.secondFactorVerified);
          setOpen(true);
        }}
      >
        Disable second factor
      </button>
      <Dialog title="Disable the second factor?" open={open} onClose={() => setOpen(false)}>
        <form noValidate className="stack" onSubmit={(e) => void submit(e)}>
          <p>
            Your authenticator app and recovery codes stop working at once. Until you set up a second factor again you cannot approve or
            reject requests.
          </p>
          {askCode ? (
            <label>
              Code from your authenticator app
              <span className="hint">This session has not verified your second factor: a 6-digit code or a recovery code.</span>
              <input name="code" inputMode="numeric" autoComplete="one-time-code" />
            </label>
          ) : null}
          <button type="submit" className="danger" disabled={busy}>
            Disable second factor
          </button>
          {error && needsFactor(error) ? (
            <div className="state error" role="alert">
              <p>
                Disabling the second factor needs it verified in this session first: enter a code from your authenticator app (or a recovery
                code) and try again. <code className="code">SECOND_FACTOR_REQUIRED</code>
              </p>
            </div>
          ) : error ? (
            <ErrorState error={error} />
          ) : null}
        </form>
      </Dialog>
    </>
  );
}
