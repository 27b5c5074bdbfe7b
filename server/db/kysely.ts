// The typed query layer of every /api request path: Kysely over the driver the service opened, typed by the
// prisma-kysely output of prisma/schema (server/generated/kysely). Money columns (numeric) and int8 come back as strings
// on both drivers, never as JavaScript numbers.
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../generated/kysely/database.ts";

export type { DB };
/** Anything a query can run on: the database itself or an open transaction. */
export type Queryable = Kysely<DB>;
/** An open transaction (the unit of work's, see unit-of-work/unit.ts). */
export type Tx = Transaction<DB>;
