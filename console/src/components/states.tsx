// Loading, empty and error states, the same on every page. A 503 offers a retry; a 403 says which role is needed.
import type { ReactNode } from "react";
import { ApiError } from "../api/client.ts";

export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

export function ErrorState({ error, retry, needs }: { error: unknown; retry?: () => void; needs?: string }) {
  // Only a failed request can say the server was not reached; a refusal made in the page says what it refused.
  const problem: { status: number; detail?: string; code?: string; requestId?: string; title?: string } =
    error instanceof ApiError ? error.problem : { status: -1, detail: error instanceof Error ? error.message : String(error) };
  let message: string;
  if (problem.status === -1) message = problem.detail ?? "Something went wrong.";
  else if (problem.status === 403 && needs) message = `This needs the ${needs} role. ${problem.detail ?? ""}`;
  else if (problem.status === 403) message = `Not allowed. ${problem.detail ?? ""}`;
  else if (problem.status === 503) message = "The service is unavailable for a moment.";
  else if (problem.status === 0) message = "The server could not be reached.";
  else message = problem.detail ?? problem.title ?? `The request failed (${problem.status}).`;
  return (
    <div className="state error" role="alert">
      <p>
        {message}
        {problem.code ? <code className="code"> {problem.code}</code> : null}
        {problem.requestId ? <span className="muted"> (request {problem.requestId})</span> : null}
      </p>
      {retry && problem.status !== 403 ? (
        <button type="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
