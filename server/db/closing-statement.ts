// The closing statement of a unit of work (server/db/unit-of-work/unit.ts): the writes nothing in the request reads back, as
// data-modifying CTEs of one statement, in front of the last of them or of the Idempotency-Key's record write.
//
// A write of fixed shape (an insert of these columns into that table, a precompiled write) joins the statement as a
// precompiled piece (server/db/sql-pieces.ts); any other is built and compiled by Kysely and cut into a piece. When a
// piece cannot be had, the whole statement is built by Kysely as one query instead — the same SQL, only slower.
import { type Compilable, type CompiledQuery, type Insertable, type Kysely, sql } from "kysely";
import type { DB } from "./kysely.ts";
import { markFinal } from "./lazy-transaction.ts";
import { type PrecompiledQuery, precompiled } from "./precompiled-query.ts";
import { fixedFragments, pieceOf, type SqlPiece, withCtes } from "./sql-pieces.ts";

type TableName = keyof DB & string;

/** A write built by Kysely on the statement's query creator (a CTE must not repeat the statement's WITH clauses). */
export type DeferredWrite = (db: Kysely<DB>) => Compilable<unknown>;

/** One write of the closing statement. */
export interface ClosingWrite {
  build: DeferredWrite;
  /** The same write as a precompiled piece, when it has a fixed shape. */
  piece?: (db: Kysely<DB>) => SqlPiece | undefined;
}

/** A write given by a builder alone: compiled per statement. */
export const builtWrite = (build: DeferredWrite): ClosingWrite => ({ build });

/** A precompiled write with this request's values. */
export function templateWrite<P extends Record<string, unknown>>(template: PrecompiledQuery<P, unknown>, values: P): ClosingWrite {
  return { build: (db) => template.build(db, values), piece: (db) => template.piece(db, values) };
}

const MAX_INSERT_TEMPLATES = 500;
const insertTemplates = new Map<string, PrecompiledQuery<Record<string, unknown>, unknown>>();

/** A value Kysely binds as a parameter (not an expression, which builds SQL of its own). */
const isPlainValue = (value: unknown) =>
  typeof value !== "function" && !(typeof value === "object" && value !== null && "toOperationNode" in value);

/** An insert of one row: a precompiled piece per (table, columns given), as Kysely would compile it (undefined values
 * leave their column out). Several rows, or a value that is an expression, are built by Kysely. */
export function insertWrite<T extends TableName>(table: T, row: Insertable<DB[T]> | Insertable<DB[T]>[]): ClosingWrite {
  const build: DeferredWrite = (db) => db.insertInto(table).values(row as never);
  if (Array.isArray(row)) return { build };
  const values = row as Record<string, unknown>;
  const columns = Object.keys(values).filter((column) => values[column] !== undefined);
  if (!columns.every((column) => isPlainValue(values[column]))) return { build };
  const shape = `${table}\n${columns.join("\n")}`;
  let template = insertTemplates.get(shape);
  if (!template && insertTemplates.size < MAX_INSERT_TEMPLATES) {
    template = precompiled((db, p: Record<string, unknown>) =>
      db.insertInto(table).values(Object.fromEntries(columns.map((column) => [column, p[column]])) as never),
    );
    insertTemplates.set(shape, template);
  }
  return template
    ? { build, piece: (db) => (template as PrecompiledQuery<Record<string, unknown>, unknown>).piece(db, values) }
    : { build };
}

/** The closing statement's guard (see closingStatement) selects from the record write under this name. */
const GUARDED = "record_write";
const guardSelect = (db: Kysely<DB>) => db.selectFrom(GUARDED as never).select(sql<number>`1 / count(*)`.as("written"));
let guardPiece: SqlPiece | undefined;
/** A piece compiled once and kept (the guard's select): its fragments are fixed (sql-pieces.ts). */
const fixedPiece = (piece: SqlPiece | undefined) => piece && { ...piece, fragments: fixedFragments(piece.fragments) };

export interface ClosingOptions {
  /** The key's record write, which must return exactly one row: otherwise the statement fails as a whole with
   * SQLSTATE 22012 (see GUARD_FAILED). */
  guard?: ClosingWrite;
  /** Nothing follows the statement in its transaction (lazy-transaction.ts markFinal: it may run without BEGIN). */
  final?: boolean;
}

/** SQLSTATE of the guard's failure: `1 / count(*)` over no row. */
export const GUARD_FAILED = "22012";

/**
 * One statement: `writes` as data-modifying CTEs in front of the last write, or in front of the guarded record write.
 * A guard selects `1 / count(*)` over the record write's returned rows: when the write found nothing to write (another
 * request's record stands, or this claim's lease was taken over), the division fails and PostgreSQL rolls back every
 * CTE of the statement with it — also when the statement runs on its own, without BEGIN. Each CTE runs exactly once,
 * whether or not the main statement reads it (PostgreSQL semantics). Returns undefined when there is nothing to write.
 */
export function closingStatement(db: Kysely<DB>, writes: ClosingWrite[], options: ClosingOptions = {}): CompiledQuery | undefined {
  const { guard, final = false } = options;
  if (writes.length === 0 && !guard) return undefined;
  const compiled = fromPieces(db, writes, guard) ?? fromBuilders(db, writes, guard);
  return final ? markFinal(compiled) : compiled;
}

function pieceOfWrite(db: Kysely<DB>, write: ClosingWrite): SqlPiece | undefined {
  return write.piece ? write.piece(db) : pieceOf(write.build(db).compile());
}

function fromPieces(db: Kysely<DB>, writes: ClosingWrite[], guard: ClosingWrite | undefined): CompiledQuery | undefined {
  const ctes: Array<readonly [string, SqlPiece]> = [];
  const cteWrites = guard ? writes : writes.slice(0, -1);
  for (const [i, write] of cteWrites.entries()) {
    const piece = pieceOfWrite(db, write);
    if (!piece) return undefined;
    ctes.push([`deferred_${i}`, piece]);
  }
  let main: SqlPiece | undefined;
  if (guard) {
    const record = pieceOfWrite(db, guard);
    guardPiece ??= fixedPiece(pieceOf(guardSelect(db).compile()));
    if (!record || !guardPiece) return undefined;
    ctes.push([GUARDED, record]);
    main = guardPiece;
  } else main = pieceOfWrite(db, writes[writes.length - 1] as ClosingWrite);
  return main && withCtes(ctes, main);
}

/** @internal The same statement built by Kysely as one query (what a statement without pieces runs; tests compare). */
export function fromBuilders(db: Kysely<DB>, writes: ClosingWrite[], guard: ClosingWrite | undefined): CompiledQuery {
  let creator = db;
  const cteWrites = guard ? writes : writes.slice(0, -1);
  cteWrites.forEach((write, i) => {
    creator = creator.with(`deferred_${i}`, (qc) => write.build(qc as Kysely<DB>) as never) as unknown as Kysely<DB>;
  });
  const main = guard
    ? guardSelect(creator.with(GUARDED, (qc) => guard.build(qc as Kysely<DB>) as never) as unknown as Kysely<DB>)
    : (writes[writes.length - 1] as ClosingWrite).build(creator);
  return main.compile() as CompiledQuery;
}
