// The unit of work's closing statement (server/db/unit-of-work/unit.ts) is one statement of data-modifying CTEs: a request's
// activity rows, compliance decisions, events, business rows and the Idempotency-Key's record. Building that statement
// with Kysely's builders and compiling it cost ≈0.1 ms of CPU per statement here (a tree of frozen nodes per value,
// then a visit of all of it) — a tenth of a bank transfer's budget, twice. Most of its writes have a fixed shape (an
// insert of these columns into that table), so they are compiled once by Kysely with placeholders for their values,
// kept as the fragments around those placeholders, and joined per request with the request's values.
//
// Everything here is Kysely's own SQL: a piece is Kysely's compilation of a query, cut at its placeholders; joining
// renumbers the placeholders and puts the pieces in Kysely's CTE syntax. test/db/sql-pieces.test.ts checks that a
// joined statement is exactly Kysely's compilation of the same composition.
import { CompiledQuery } from "kysely";

/** A compiled query as the text around its placeholders: `fragments.length === parameters.length + 1`. */
export interface SqlPiece {
  readonly fragments: readonly string[];
  readonly parameters: readonly unknown[];
}

const PLACEHOLDER = /\$(\d+)/g;

/** The fragments of compiled SQL around its placeholders, which Kysely numbers $1…$n in order of appearance, each once.
 * undefined when the text shows anything else (a literal that reads like a placeholder): such a query is not cut. */
export function fragmentsOf(sql: string, parameterCount: number): readonly string[] | undefined {
  const fragments: string[] = [];
  let from = 0;
  let expected = 1;
  for (const match of sql.matchAll(PLACEHOLDER)) {
    if (Number(match[1]) !== expected++) return undefined;
    fragments.push(sql.slice(from, match.index));
    from = (match.index as number) + match[0].length;
  }
  if (expected - 1 !== parameterCount) return undefined;
  fragments.push(sql.slice(from));
  return fragments;
}

/** A compiled query as a piece, or undefined (see fragmentsOf). */
export function pieceOf(compiled: { sql: string; parameters: readonly unknown[] }): SqlPiece | undefined {
  const fragments = fragmentsOf(compiled.sql, compiled.parameters.length);
  return fragments && { fragments, parameters: compiled.parameters };
}

// A statement joined from fixed fragments only (a precompiled query's, which live as long as the process) has the same
// text every time it has the same shape: that text is joined once and the same string handed out after. Beyond the
// joining, the driver keys its prepared statements by the text (server/db/open-database.ts), and V8 hashes a string once
// per string object: a closing statement of a few kB joined anew was hashed anew on every write.
const fixedFragmentIds = new WeakMap<readonly string[], number>();
let nextFragmentsId = 0;
const MAX_JOINED_TEXTS = 1_000;
const joinedTexts = new Map<string, string>();

/** @internal How many statement shapes have their text kept (the tests watch it grow). */
export const joinedShapeCount = () => joinedTexts.size;

/** Marks `fragments` as fixed: never changed, and kept for the life of the process. */
export function fixedFragments(fragments: readonly string[]): readonly string[] {
  if (!fixedFragmentIds.has(fragments)) fixedFragmentIds.set(fragments, nextFragmentsId++);
  return fragments;
}

/** The statement's shape when every piece is fixed (names and fragment ids), else undefined. */
function shapeOf(ctes: ReadonlyArray<readonly [name: string, piece: SqlPiece]>, main: SqlPiece): string | undefined {
  let shape = "";
  for (const [name, piece] of ctes) {
    const id = fixedFragmentIds.get(piece.fragments);
    if (id === undefined) return undefined;
    shape += `${name}:${id},`;
  }
  const id = fixedFragmentIds.get(main.fragments);
  return id === undefined ? undefined : `${shape}${id}`;
}

/** `with "<name>" as (<piece>), … <main>` — the statement Kysely compiles for `db.with(name, …)…` — with every
 * placeholder renumbered in order. */
export function withCtes(ctes: ReadonlyArray<readonly [name: string, piece: SqlPiece]>, main: SqlPiece): CompiledQuery {
  const parameters: unknown[] = [];
  for (const [, piece] of ctes) for (const value of piece.parameters) parameters.push(value);
  for (const value of main.parameters) parameters.push(value);
  const shape = shapeOf(ctes, main);
  let sql = shape === undefined ? undefined : joinedTexts.get(shape);
  if (sql === undefined) {
    sql = joinText(ctes, main);
    if (shape !== undefined && joinedTexts.size < MAX_JOINED_TEXTS) joinedTexts.set(shape, sql);
  }
  return CompiledQuery.raw(sql, parameters);
}

function joinText(ctes: ReadonlyArray<readonly [name: string, piece: SqlPiece]>, main: SqlPiece): string {
  let sql = "";
  let placeholder = 0;
  const append = ({ fragments }: SqlPiece) => {
    for (let i = 0; i < fragments.length - 1; i++) sql += `${fragments[i]}$${++placeholder}`;
    sql += fragments[fragments.length - 1];
  };
  ctes.forEach(([name, piece], i) => {
    sql += i === 0 ? `with "${name}" as (` : `, "${name}" as (`;
    append(piece);
    sql += ")";
  });
  if (ctes.length > 0) sql += " ";
  append(main);
  return sql;
}
