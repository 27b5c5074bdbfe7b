// Fingerprints of every table (row count + an md5 over all rows), to prove that rejected requests neither created nor
// changed a record. Tables are discovered from the catalog, so a table added later is covered without editing this file.
import type { TestServer } from "./test-server.ts";

export interface TableState {
  rows: number;
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
           coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') AS digest FROM ${quote(name)} t`,
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
