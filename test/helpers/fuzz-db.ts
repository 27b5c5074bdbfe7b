// Fingerprints of every table, to prove that rejected requests neither created, changed nor deleted a record. Tables
// are discovered from the catalog, so a table added later is covered without editing this file.
//
// A fingerprint is the row count and the newest row version's creating transaction (`max(xmin)`): an INSERT or UPDATE
// writes a row version stamped with a transaction id newer than any before it, a DELETE lowers the count, and a DELETE
// plus an INSERT leaves a newer xmin. A rolled-back write leaves no visible version. That proves at least what an md5
// over every row proved (it also sees a row rewritten to the same values), without sorting and hashing every table after
// each of the ~400 batches.
import type { TestServer } from "./test-server.ts";

export interface TableState {
  rows: number;
  /** The newest visible row version's transaction id (`max(xmin)`), or "0" for an empty table. */
  digest: string;
}

export type Snapshot = Map<string, TableState>;

/** Returns a function that snapshots every table of the public schema (except the migrations ledger and `exclude`). */
export async function tableSnapshotter(server: TestServer, exclude: readonly string[] = []): Promise<() => Promise<Snapshot>> {
  const db = server.db.prisma;
  const tables = (
    await db.$queryRawUnsafe<Array<{ name: string }>>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`,
    )
  )
    .map((t) => t.name)
    .filter((name) => !exclude.includes(name));
  if (tables.length === 0) throw new Error("no tables found");
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const sql = tables
    .map(
      (name) =>
        `SELECT '${name.replace(/'/g, "''")}' AS name, count(*)::int AS rows,
           coalesce(max(xmin::text::bigint), 0)::text AS digest FROM ${quote(name)}`,
    )
    .join(" UNION ALL ");
  return async () => {
    const rows = await db.$queryRawUnsafe<Array<{ name: string; rows: number; digest: string }>>(sql);
    return new Map(rows.map((r) => [r.name, { rows: Number(r.rows), digest: r.digest }]));
  };
}

/** Tables whose rows or contents differ between two snapshots, as `Table: 3 → 4 rows` / `Table: contents changed`. */
export function snapshotDiff(before: Snapshot, after: Snapshot, ignore: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (const [name, state] of after) {
    if (ignore.has(name)) continue;
    const previous = before.get(name);
    if (!previous) out.push(`${name}: new table`);
    else if (previous.rows !== state.rows) out.push(`${name}: ${previous.rows} → ${state.rows} rows`);
    else if (previous.digest !== state.digest) out.push(`${name}: contents changed`);
  }
  return out;
}
