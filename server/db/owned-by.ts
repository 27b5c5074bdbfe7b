// Tenant scoping in one place. Every tenant-scoped row carries organizationId and environment; a query made for a
// caller filters on both, so another organization's (or environment's) row reads exactly like a missing one.
import { type Expression, type ExpressionBuilder, type Selectable, type SqlBool, sql } from "kysely";
import { notFound } from "../errors/service-error.ts";
import type { DB, Queryable } from "./kysely.ts";

/** Whose rows a query may see: an API key's organization and environment (an AuthContext is one). */
export interface Owner {
  organizationId: string;
  environment: string;
}

/** The tables whose rows belong to an organization and environment. */
export type OwnedTable = { [T in keyof DB]: DB[T] extends { organizationId: string; environment: string } ? T : never }[keyof DB];

/** `.where(ownedBy(auth))` on a query of an owned table (not an aliased one): `("organizationId" = … and "environment" = …)`. */
export function ownedBy<TB extends OwnedTable>(owner: Owner): (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool> {
  return (eb) => {
    // TB is owned, so it has both columns; the compiler cannot see that through the type parameter.
    const owned = eb as unknown as ExpressionBuilder<DB, OwnedTable>;
    return owned.and([owned("organizationId", "=", owner.organizationId), owned("environment", "=", owner.environment)]);
  };
}

/** `ownedBy` for an owned table under an alias in a join: `selectFrom("IssuanceRequest as ir")…where(ownedAs(auth, "ir"))`. */
export function ownedAs(owner: Owner, alias: string): Expression<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<SqlBool>`(${column("organizationId")} = ${owner.organizationId} and ${column("environment")} = ${owner.environment})`;
}

/** The owner's row of `table` with this id (one statement); else 404 NOT_FOUND `<what> not found`. */
export async function findOwned<T extends OwnedTable>(
  db: Queryable,
  table: T,
  id: string,
  owner: Owner,
  what: string,
): Promise<Selectable<DB[T]>> {
  const row = await db
    .selectFrom(table as OwnedTable)
    .selectAll()
    .where("id", "=", id)
    .where(ownedBy(owner))
    .executeTakeFirst();
  if (!row) throw notFound(what);
  // The row of `table` itself: selectAll on the one table named.
  return row as Selectable<DB[T]>;
}
