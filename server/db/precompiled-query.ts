// A query of fixed shape, built and compiled to SQL once; each call only binds new parameter values. Kysely builds the
// query tree and compiles it to SQL on every call, which was ≈10% of an authenticated GET's CPU in `npm run
// bench:profile`; the few statements every request runs (the API key lookup, the idempotency lock-and-read, the v1
// wallet read) skip that. The builder must use the named parameters only as values (never as identifiers or in `lit`).
import { type Compilable, type CompiledQuery, createQueryId, type Kysely } from "kysely";
import type { DB } from "./kysely.ts";
import { fixedFragments, fragmentsOf, type SqlPiece } from "./sql-pieces.ts";

const MARK = "\u0001precompiled-parameter:";

interface Template {
  sql: string;
  query: CompiledQuery["query"];
  /** For each SQL parameter: the name of the caller's value, or a constant of the query itself. */
  slots: Array<{ name: string } | { constant: unknown }>;
  /** The text around the placeholders (server/db/sql-pieces.ts), or undefined when it cannot be cut. */
  fragments: readonly string[] | undefined;
}

export interface PrecompiledQuery<P, O> {
  /** Runs the query on `db` (the database or an open transaction) with these values; returns its rows. */
  execute(db: Kysely<DB>, values: P): Promise<O[]>;
  /** The query with these values as a piece of a larger statement (a CTE of the closing statement), or undefined. */
  piece(db: Kysely<DB>, values: P): SqlPiece | undefined;
  /** The query with these values, built by Kysely as usual (for a statement that is not assembled from pieces). */
  build(db: Kysely<DB>, values: P): Compilable<O>;
}

export function precompiled<P extends Record<string, unknown>, O>(
  build: (db: Kysely<DB>, parameters: P) => Compilable<O>,
): PrecompiledQuery<P, O> {
  let template: Template | undefined;
  const markers = new Proxy({} as P, { get: (_target, name) => `${MARK}${String(name)}` });
  const compile = (db: Kysely<DB>): Template => {
    const compiled = build(db, markers).compile();
    const slots = compiled.parameters.map((value) =>
      typeof value === "string" && value.startsWith(MARK) ? { name: value.slice(MARK.length) } : { constant: value },
    );
    const fragments = fragmentsOf(compiled.sql, slots.length);
    return { sql: compiled.sql, query: compiled.query, slots, fragments: fragments && fixedFragments(fragments) };
  };
  const bind = (t: Template, values: P) => t.slots.map((slot) => ("name" in slot ? values[slot.name] : slot.constant));
  return {
    async execute(db, values) {
      // One SQL text for every database: PGlite and PostgreSQL share Kysely's PostgreSQL compiler.
      template ??= compile(db);
      const compiled: CompiledQuery<O> = {
        sql: template.sql,
        query: template.query,
        parameters: bind(template, values),
        queryId: createQueryId(),
      };
      return (await db.executeQuery(compiled)).rows;
    },
    piece(db, values) {
      template ??= compile(db);
      return template.fragments && { fragments: template.fragments, parameters: bind(template, values) };
    },
    build: (db, values) => build(db, values),
  };
}
