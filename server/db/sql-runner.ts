// The minimal raw-SQL surface migrations need, over either driver.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

export interface SqlRunner {
  /** Runs `work` inside one transaction; `exec` runs a multi-statement script, `query` one parameterised statement. */
  transaction<T>(work: (tx: SqlTx) => Promise<T>): Promise<T>;
}

export interface SqlTx {
  exec(script: string): Promise<void>;
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

export function pgliteRunner(db: PGlite): SqlRunner {
  return {
    transaction: (work) =>
      db.transaction((tx) =>
        work({
          exec: async (script) => {
            await tx.exec(script);
          },
          query: async (sql, params) => (await tx.query(sql, params)).rows as never,
        }),
      ),
  };
}

export function pgPoolRunner(pool: pg.Pool): SqlRunner {
  return {
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({
          exec: async (script) => {
            await client.query(script);
          },
          query: async (sql, params) => (await client.query(sql, params)).rows as never,
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
