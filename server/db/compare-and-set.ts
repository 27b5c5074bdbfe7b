// The one version-guarded update: `UPDATE … SET <changes>, version = version + 1 WHERE id = ? AND version = ?` (plus any
// further guard the caller's state machine needs), returning the row as written, or undefined when another writer
// moved the row first (the caller decides what losing means: 409, a retry, a replay of the winner's answer). One
// statement, so a guarded move costs what the hand-written update cost.
// Tenant rule (test/unit/tenant-rule.test.ts): it writes by id the row `current` the caller read through ownedBy, so it
// needs no owner filter of its own; `current` must come from such a read.
import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool, Updateable } from "kysely";
import type { DB, Queryable, Tx } from "./kysely.ts";

/** The tables whose rows carry an optimistic-concurrency `version`. */
export type VersionedTable = {
  [T in keyof DB & string]: DB[T] extends { id: unknown; version: unknown } ? T : never;
}[keyof DB & string];

/**
 * Writes `changes` to the row `current` read, only while its version is still `current.version`, and advances the
 * version by one. `guard` adds conditions the move also needs (a status it leaves, an expiry it must beat).
 */
export async function compareAndSet<T extends VersionedTable>(
  db: Queryable | Tx,
  table: T,
  current: { id: string; version: number },
  changes: Omit<Updateable<DB[T]>, "id" | "version">,
  guard?: (eb: ExpressionBuilder<DB, T>) => Expression<SqlBool>,
): Promise<Selectable<DB[T]> | undefined> {
  // biome-ignore lint/suspicious/noExplicitAny: the table is generic; the signature above keeps callers typed
  const untyped = db as unknown as Kysely<any>;
  let update = untyped
    .updateTable(table as string)
    .set({ ...(changes as Record<string, unknown>), version: current.version + 1 })
    .where("id", "=", current.id)
    .where("version", "=", current.version);
  // biome-ignore lint/suspicious/noExplicitAny: see above
  if (guard) update = update.where(guard as any);
  return (await update.returningAll().executeTakeFirst()) as Selectable<DB[T]> | undefined;
}
