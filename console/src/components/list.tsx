// A streamed list as a table: rows appear page by page as the member scrolls (the sentinel row), with the loading,
// empty and error states every page shares.
import type { ReactNode } from "react";
import type { Pages } from "../api/use-pages.ts";
import { Empty, ErrorState, Loading } from "./states.tsx";

export interface Column<T> {
  header: string;
  cell(item: T): ReactNode;
}

export function StreamedTable<T>({
  pages,
  columns,
  rowKey,
  caption,
  what,
  needs,
  empty,
}: {
  pages: Pages<T>;
  columns: Column<T>[];
  rowKey(item: T): string;
  caption: string;
  what: string;
  needs?: string;
  empty?: ReactNode;
}) {
  if (pages.state === "error" && pages.items.length === 0) return <ErrorState error={pages.error} retry={pages.reload} needs={needs} />;
  if (pages.state === "ok" && pages.items.length === 0) return <Empty>{empty ?? `No ${what} yet.`}</Empty>;
  return (
    <>
      {pages.items.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th scope="col" key={c.header}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {pages.items.map((item) => (
                <tr key={rowKey(item)}>
                  {columns.map((c) => (
                    <td key={c.header} data-label={c.header}>
                      {c.cell(item)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pages.state === "loading" ? <Loading what={what} /> : null}
      {pages.state === "error" && pages.items.length > 0 ? <ErrorState error={pages.error} retry={pages.retry} needs={needs} /> : null}
      {pages.hasMore ? <div ref={pages.sentinel} className="sentinel" aria-hidden="true" /> : null}
    </>
  );
}

export function when(value: unknown): string {
  if (typeof value !== "string" || !value) return "—";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString().replace("T", " ").slice(0, 19);
}
