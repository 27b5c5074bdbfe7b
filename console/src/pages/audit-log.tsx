// The audit log (owners): who did what to members, sessions and keys, newest first, streamed as the member scrolls.
import { api, unwrap } from "../api/client.ts";
import { usePages } from "../api/use-pages.ts";
import { StreamedTable, when } from "../components/list.tsx";
import { useEnvironment } from "../components/shell.tsx";

type Loose = Record<string, unknown>;

export function AuditLog() {
  const environment = useEnvironment();
  const pages = usePages(
    async (cursor) => {
      const body = (await unwrap(
        api(environment).GET(
          "/api/v2/agent/audit-log" as never,
          { params: { query: { limit: 25, ...(cursor ? { startingAfter: cursor } : {}) } } } as never,
        ),
      )) as { data?: Loose[]; hasMore?: boolean; nextCursor?: string | null };
      return { items: body.data ?? [], next: body.hasMore ? (body.nextCursor ?? null) : null };
    },
    [environment],
  );
  const actor = (e: Loose) => {
    const a = e.actor as Loose | string | undefined;
    return typeof a === "string" ? a : String(e.actorEmail ?? e.actorMemberId ?? "operator");
  };
  return (
    <>
      <h1>Audit log</h1>
      <StreamedTable
        pages={pages}
        what="audit log entries"
        caption="Audit log"
        needs="owner"
        rowKey={(e) => String(e.id)}
        columns={[
          { header: "When", cell: (e) => when(e.createdAt ?? e.at) },
          { header: "Who", cell: actor },
          { header: "Action", cell: (e) => <code>{String(e.action ?? e.type ?? "")}</code> },
          { header: "Target", cell: (e) => String(e.target ?? "—") },
        ]}
      />
    </>
  );
}
