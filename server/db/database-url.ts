// DATABASE_URL: unset → PGlite in ./.data/pglite; `pglite:memory` → in-memory PGlite; `pglite:<dir>` → PGlite in <dir>;
// `postgres://…` / `postgresql://…` → PostgreSQL.

export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string | undefined; label: string }
  | { kind: "postgres"; connectionString: string; label: string };

export const DEFAULT_PGLITE_DIR = "./.data/pglite";

export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  if (!url) return { kind: "pglite", dataDir: DEFAULT_PGLITE_DIR, label: `pglite:${DEFAULT_PGLITE_DIR}` };
  if (url === "pglite:memory") return { kind: "pglite", dataDir: undefined, label: "pglite:memory" };
  if (url.startsWith("pglite:")) {
    const dataDir = url.slice("pglite:".length);
    if (!dataDir) throw new Error("DATABASE_URL pglite:<dir> needs a folder");
    return { kind: "pglite", dataDir, label: url };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    checkPostgresUrl(url);
    return { kind: "postgres", connectionString: url, label: redactPassword(url) };
  }
  throw new Error("DATABASE_URL must be unset, pglite:memory, pglite:<dir>, or a postgresql:// URL");
}

/** A URL that does not parse, names no host, or names no database is refused here: without a database name, pg would
 * silently connect to the user's default database (usually `postgres`) and migrate into it. */
function checkPostgresUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`DATABASE_URL is not a valid URL (${redactPassword(url)}); expected postgresql://user:password@host:5432/database`);
  }
  if (!parsed.hostname && !parsed.searchParams.get("host")) {
    throw new Error(`DATABASE_URL names no host (${redactPassword(url)}); expected postgresql://user:password@host:5432/database`);
  }
  if (!parsed.pathname.replace(/^\//, "")) {
    throw new Error(`DATABASE_URL names no database (${redactPassword(url)}); add it: postgresql://user:password@host:5432/<database>`);
  }
}

export function redactPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}
