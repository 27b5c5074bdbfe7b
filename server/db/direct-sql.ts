// One parameterised statement straight on the driver (pg pool or PGlite), outside Prisma. Prisma 6.19's query
// compiler runs as Wasm on the event loop and re-plans every call (~0.9 ms of CPU for a findUnique here, against
// ~0.16 ms for the same statement on pg; `npm run bench:profile` shows it), so the few statements on every request's
// path (idempotency reservation and replay, the v1 wallet read) use this instead. Everything else stays on Prisma.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

export interface DirectSql {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

export function pgliteSql(db: PGlite): DirectSql {
  return { query: async (text, params) => (await db.query(text, params)).rows as never };
}

export function pgPoolSql(pool: pg.Pool): DirectSql {
  return { query: async (text, params) => (await pool.query(text, params)).rows as never };
}
