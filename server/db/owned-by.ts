// Tenant scoping in one place. A tenant-scoped row carries organizationId (and, for most tables, environment); a query
// made for a caller filters on them, so another organization's (or environment's) row reads exactly like a missing one.
// test/unit/tenant-rule.test.ts fails when a query on such a table filters by hand or not at all (docs/architecture.md).
import { type Expression, type ExpressionBuilder, type Selectable, type SqlBool, sql } from "kysely";
import { notFound } from "../errors/service-error.ts";
import type { DB, Queryable } from "./kysely.ts";

/** Whose rows a query may see: an API key's organization and environment (an AuthContext is one). */
export interface Owner {
  organizationId: string;
  environment: string;
}

type OwnedRow = { organizationId: string; environment: string };
type OrganizationRow = { organizationId: string };

/** The tables whose rows belong to an organization and environment. */
export type OwnedTable = { [T in keyof DB]: DB[T] extends OwnedRow ? T : never }[keyof DB];
/** The tables whose rows belong to an organization (every OwnedTable, and the members' tables, which have no environment). */
export type OrganizationTable = { [T in keyof DB]: DB[T] extends OrganizationRow ? T : never }[keyof DB];
type TenantFilter<QDB, TB extends keyof QDB> = (eb: ExpressionBuilder<QDB, TB>) => Expression<SqlBool>;
/** A filter for any query in which `A` names a table of rows shaped `Row` (`selectFrom("Wallet as w")`, a join): the
 * query's types are inferred where Kysely calls it, so an alias of another table, or of none, does not compile. */
type AliasedTenantFilter<A extends string, Row> = <QDB extends Record<A, Row>, TB extends keyof QDB>(
  eb: ExpressionBuilder<QDB, TB>,
) => Expression<SqlBool>;

/** `("<alias>"."organizationId" = … [and "<alias>"."environment" = …])`: the aliased form, which Kysely's typed
 * references cannot name through a type parameter; the alias is checked against the query by the signatures below. */
function aliasedFilter(alias: string, organizationId: string, environment?: string): Expression<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  if (environment === undefined) return sql<SqlBool>`(${column("organizationId")} = ${organizationId})`;
  return sql<SqlBool>`(${column("organizationId")} = ${organizationId} and ${column("environment")} = ${environment})`;
}

/**
 * `.where(ownedBy(auth))` on a query of an owned table: `("organizationId" = … and "environment" = …)`.
 * `.where(ownedBy(auth, "w"))` on `selectFrom("Wallet as w")` (or a join): the same on the alias, which must name an
 * owned table of the query.
 */
export function ownedBy<TB extends OwnedTable>(owner: Owner): TenantFilter<DB, TB>;
export function ownedBy<A extends string>(owner: Owner, alias: A): AliasedTenantFilter<A, OwnedRow>;
export function ownedBy(owner: Owner, alias?: string): (eb: never) => Expression<SqlBool> {
  if (alias !== undefined) return () => aliasedFilter(alias, owner.organizationId, owner.environment);
  // The table is owned, so it has both columns; the compiler cannot see that through the overload's type parameter.
  return (owned: ExpressionBuilder<DB, OwnedTable>) =>
    owned.and([owned("organizationId", "=", owner.organizationId), owned("environment", "=", owner.environment)]);
}

/**
 * `.where(ownedByOrganization(organizationId))`: the organization alone, for the members' tables (Member, MemberSession,
 * MemberInvitation, AuditEntry, IdempotencyRecord have no environment) and for a console member's view across both
 * environments (their API keys). Never for an API key's request: that is `ownedBy`, environment included.
 */
export function ownedByOrganization<TB extends OrganizationTable>(organizationId: string): TenantFilter<DB, TB>;
export function ownedByOrganization<A extends string>(organizationId: string, alias: A): AliasedTenantFilter<A, OrganizationRow>;
export function ownedByOrganization(organizationId: string, alias?: string): (eb: never) => Expression<SqlBool> {
  if (alias !== undefined) return () => aliasedFilter(alias, organizationId);
  return (owned: ExpressionBuilder<DB, OrganizationTable>) => owned("organizationId", "=", organizationId);
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
