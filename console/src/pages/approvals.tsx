// Approvals: the inbox of pending requests with what each would do, approve or reject with a note (the second factor
// is asked for when the session has not verified it), decided requests with their history, and the member's own
// requests shown but not decidable (four eyes: the server refuses them too, 403 OWN_APPROVAL_REQUEST).
import { type FormEvent, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import type { components } from "../../../sdk/src/generated/openapi.ts";
import { type ApprovalSummary, type AssetCatalogue, summarizeApproval } from "../api/approval-summary.ts";
import { loadAssetCatalogue } from "../api/asset-catalogue.ts";
import { ApiError, api, unwrap } from "../api/client.ts";
import { type SessionInfo, useMember, useSession } from "../api/session.tsx";
import { useLoad } from "../api/use-load.ts";
import { usePages } from "../api/use-pages.ts";
import { Dialog, Json } from "../components/dialog.tsx";
import { checkForm } from "../components/form-check.ts";
import { StreamedTable, when } from "../components/list.tsx";
import { useEnvironment } from "../components/shell.tsx";
import { ErrorState, Loading } from "../components/states.tsx";
import { ResourceEvents } from "./events.tsx";

type Approval = components["schemas"]["ApprovalRequest"];
type Loose = Record<string, unknown>;
/** A request with what it would do, worked out once when its page loads. */
type Row = { approval: Approval; summary: ApprovalSummary };

export function isOwn(approval: Approval, member: SessionInfo): boolean {
  const by = approval.requestedBy as Loose;
  return by.memberId === member.memberId || (member.email !== "" && by.actor === member.email);
}

function Decide({
  approval,
  summary,
  decision,
  onDone,
}: {
  approval: Approval;
  summary: ApprovalSummary;
  decision: "approve" | "reject";
  onDone(): void;
}) {
  const environment = useEnvironment();
  const member = useMember();
  const { refresh } = useSession();
  const [needCode, setNeedCode] = useState(!member.secondFactorVerified);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const verb = decision === "approve" ? "Approve" : "Reject";
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
      if (needCode) {
        await unwrap(
          api(environment).POST(
            "/api/v2/agent/sessions/current/second-factor" as never,
            { body: { code: String(form.get("code")) } } as never,
          ),
        );
        await refresh();
        setNeedCode(false);
      }
      const note = String(form.get("note") ?? "").trim();
      const path =
        decision === "approve"
          ? "/api/v2/agent/approvals/{approvalRequestId}/approve"
          : "/api/v2/agent/approvals/{approvalRequestId}/reject";
      await unwrap(
        api(environment).POST(path, {
          params: { path: { approvalRequestId: approval.approvalRequestId } },
          body: { ...(note ? { reason: note } : {}), expectedVersion: approval.version },
        }),
      );
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.problem.code === "SECOND_FACTOR_REQUIRED") setNeedCode(true);
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form noValidate className="stack" onSubmit={(e) => void submit(e)}>
      <p>
        {verb} <code>{approval.action}</code> requested by {approval.requestedBy.actor}:
      </p>
      <dl className="facts">
        <dt>Operation</dt>
        <dd>{summary.operation}</dd>
        <dt>Amount</dt>
        <dd>{summary.amount}</dd>
        <dt>Destination</dt>
        <dd>
          <code className="wrap">{summary.destination}</code>
        </dd>
      </dl>
      <label>
        Note
        <textarea name="note" rows={2} maxLength={500} />
      </label>
      {needCode ? (
        <label>
          Code from your authenticator app
          <input name="code" inputMode="numeric" autoComplete="one-time-code" required />
        </label>
      ) : null}
      <button type="submit" className={decision === "approve" ? "primary" : "danger"} disabled={busy}>
        {verb}
      </button>
      {error ? <ErrorState error={error} needs="approver or owner" /> : null}
    </form>
  );
}

function Actions({ approval, summary, onDone }: { approval: Approval; summary: ApprovalSummary; onDone(): void }) {
  const member = useMember();
  const [deciding, setDeciding] = useState<"approve" | "reject" | null>(null);
  if (approval.status !== "pending") return <span>{approval.status}</span>;
  if (isOwn(approval, member)) return <span className="muted">Your request: another member decides</span>;
  return (
    <span className="row-actions">
      <button type="button" onClick={() => setDeciding("approve")} aria-label={`Approve ${approval.approvalRequestId}`}>
        Approve
      </button>
      <button type="button" onClick={() => setDeciding("reject")} aria-label={`Reject ${approval.approvalRequestId}`}>
        Reject
      </button>
      <Dialog
        title={deciding === "approve" ? "Approve request" : "Reject request"}
        open={deciding !== null}
        onClose={() => setDeciding(null)}
      >
        {deciding ? (
          <Decide
            approval={approval}
            summary={summary}
            decision={deciding}
            onDone={() => {
              setDeciding(null);
              onDone();
            }}
          />
        ) : null}
      </Dialog>
    </span>
  );
}

const STATUSES = ["pending", "approved", "rejected", "expired"] as const;

/** The last catalogue read per environment, for the pages after the first. */
const catalogues = new Map<string, AssetCatalogue>();

export function Approvals() {
  const environment = useEnvironment();
  const [params, setParams] = useSearchParams();
  const status = (STATUSES as readonly string[]).includes(params.get("status") ?? "")
    ? (params.get("status") as Approval["status"])
    : "pending";
  const pages = usePages<Row>(
    async (cursor) => {
      // The issuers and asset decimals are read with each first page, so a token launched since shows its amounts.
      const [body, catalogue] = await Promise.all([
        unwrap(
          api(environment).GET("/api/v2/agent/approvals", {
            params: { query: { status, limit: 25, ...(cursor ? { startingAfter: cursor } : {}) } },
          }),
        ),
        cursor === null || !catalogues.has(environment) ? loadAssetCatalogue(environment) : catalogues.get(environment)!,
      ]);
      catalogues.set(environment, catalogue);
      return {
        items: body.data.map((approval) => ({ approval, summary: summarizeApproval(approval, catalogue) })),
        next: body.hasMore ? body.nextCursor : null,
      };
    },
    [environment, status],
  );
  return (
    <>
      <h1>Approvals</h1>
      <fieldset className="segmented">
        <legend className="visually-hidden">Status</legend>
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={s === status} onClick={() => setParams({ status: s })}>
            {s === "pending" ? "Inbox (pending)" : s}
          </button>
        ))}
      </fieldset>
      <StreamedTable
        pages={pages}
        what="approval requests"
        caption={`Approval requests: ${status}`}
        needs="viewer"
        empty={status === "pending" ? "Nothing waits for a decision." : `No ${status} requests.`}
        rowKey={(r) => r.approval.approvalRequestId}
        columns={[
          {
            header: "Operation",
            cell: ({ approval: a, summary }) => (
              <span className="lines">
                <Link to={`/${environment}/approvals/${a.approvalRequestId}`}>{summary.operation}</Link>
                <code className="muted nowrap">{a.action}</code>
              </span>
            ),
          },
          { header: "Amount", cell: (r) => <span className="amount nowrap">{r.summary.amount}</span> },
          { header: "Asset", cell: (r) => <span className="nowrap">{r.summary.asset}</span> },
          { header: "Destination", cell: (r) => <code className="wrap">{r.summary.destination}</code> },
          { header: "Requester", cell: (r) => r.approval.requestedBy.actor },
          {
            header: status === "pending" ? "Expires" : "Decided",
            cell: ({ approval: a }) => when(status === "pending" ? a.expiresAt : (a.decidedAt ?? a.expiresAt)),
          },
          { header: "Decision", cell: (r) => <Actions approval={r.approval} summary={r.summary} onDone={pages.reload} /> },
        ]}
      />
    </>
  );
}

export function ApprovalDetail() {
  const environment = useEnvironment();
  const { id = "" } = useParams();
  const approval = useLoad(async () => {
    const [data, catalogue] = await Promise.all([
      unwrap(api(environment).GET("/api/v2/agent/approvals/{approvalRequestId}", { params: { path: { approvalRequestId: id } } })),
      loadAssetCatalogue(environment),
    ]);
    return { ...data, summary: summarizeApproval(data, catalogue) };
  }, [environment, id]);
  return (
    <>
      <p>
        <Link to={`/${environment}/approvals`}>Approvals</Link> / {id}
      </p>
      <h1>Approval request</h1>
      {approval.state === "loading" ? <Loading what="the approval request" /> : null}
      {approval.state === "error" ? <ErrorState error={approval.error} retry={approval.reload} needs="viewer" /> : null}
      {approval.state === "ok" ? (
        <>
          <dl className="facts">
            <dt>Operation</dt>
            <dd>
              {approval.data.summary.operation} (<code>{approval.data.action}</code>)
            </dd>
            <dt>Amount</dt>
            <dd>{approval.data.summary.amount}</dd>
            <dt>Asset</dt>
            <dd>{approval.data.summary.asset}</dd>
            <dt>Destination</dt>
            <dd>
              <code className="wrap">{approval.data.summary.destination}</code>
            </dd>
            <dt>Status</dt>
            <dd>{approval.data.status}</dd>
            <dt>Requested by</dt>
            <dd>{approval.data.requestedBy.actor}</dd>
            <dt>Decided by</dt>
            <dd>{approval.data.decidedBy?.actor ?? "—"}</dd>
            <dt>Note</dt>
            <dd>{approval.data.decisionReason ?? "—"}</dd>
            <dt>Expires</dt>
            <dd>{when(approval.data.expiresAt)}</dd>
          </dl>
          <Actions approval={approval.data} summary={approval.data.summary} onDone={approval.reload} />
          <h2>Payload</h2>
          <Json value={approval.data.payload} label="Payload" />
          <ResourceEvents resourceId={id} />
        </>
      ) : null}
    </>
  );
}
