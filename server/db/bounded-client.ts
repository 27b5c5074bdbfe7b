// The pg client every PostgreSQL connection of the pool is: statements prepared once per connection, a connection
// dropped when a statement went unanswered, and a callback form for the request path's driver (pg-pool-driver.ts).
import pg from "pg";
import { SIMPLE_QUERY_TEXTS } from "./transaction-scoped-settings.ts";

/** What a statement's result is handed to: pg's callback form, no promise of its own. */
export type StatementCallback = (error: Error | undefined, result: pg.QueryResult | pg.QueryResult[] | undefined) => void;

/** Statements a connection keeps prepared at most; the least recently used one is deallocated past it. */
export const PREPARED_STATEMENTS_PER_CONNECTION = 100;

/**
 * A pg client that
 *   - prepares every statement Kysely sends, once per connection: a statement text seen before on this connection is
 *     executed by name (Bind/Execute only), so PostgreSQL neither parses nor plans it again and the text is not sent
 *     again — for the closing statements of the unit of work (several data-modifying CTEs, a few kB of SQL) that halves
 *     the database's CPU per statement here (≈0.43 → 0.22 ms) and saves the client ≈0.04 ms. Names are unique per
 *     connection and never reused; past PREPARED_STATEMENTS_PER_CONNECTION the least recently used is deallocated, so
 *     statements of unbounded variety (lists of varying length) cannot grow the server's memory without bound;
 *   - drops its connection when a statement timed out on the client side (`query_timeout`): the connection is then
 *     presumed partitioned, and a statement queued behind the unanswered one would only wait in turn. Destroying the
 *     socket makes the pool discard the client when it is released (and the server end the session).
 */
export class BoundedClient extends pg.Client {
  private readonly prepared = new Map<string, string>();
  private nextStatement = 0;
  /** False behind a pooler that keeps no prepared statements (UnpreparedClient). */
  protected readonly namesStatements: boolean = true;

  // The promise form, for the pool's other users (the migrations' runner, Prisma's adapter, the readiness ping); the
  // request path sends through send() below.
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this only observes the promise form
  override query(...args: any[]): any {
    const result =
      this.namesStatements && args.length === 2 && typeof args[0] === "string" && Array.isArray(args[1]) && !SIMPLE_QUERY_TEXTS.has(args[0])
        ? this.namedQuery(args[0], args[1])
        : // biome-ignore lint/suspicious/noExplicitAny: see above
          (super.query as (...a: any[]) => any)(...args);
    if (result && typeof result.then === "function") {
      (result as Promise<unknown>).catch((error: unknown) => {
        if ((error as Error | undefined)?.message === "Query read timeout") this.abandon();
      });
    }
    return result;
  }

  /**
   * `text` with `values`, the result handed to `callback`: what query() does for a (text, values) pair, without the
   * promise pg's promise form makes and the one its timeout watch needs (the request path's driver makes the one promise
   * Kysely is handed: pg-pool-driver.ts). A statement that went unanswered drops the connection here too, in a microtask
   * after pg's own timeout handling, as the promise form's watch does.
   */
  send(text: string, values: unknown[], callback: StatementCallback): void {
    const done: StatementCallback = (error, result) => {
      if (error?.message === "Query read timeout") queueMicrotask(() => this.abandon());
      callback(error, result);
    };
    if (this.namesStatements && !SIMPLE_QUERY_TEXTS.has(text)) {
      super.query(this.namedStatement(text, values, done));
    } else {
      (super.query as (text: string, values: unknown[], callback: StatementCallback) => void)(text, values, done);
    }
  }

  /** `text` run by this connection's name for it. The Query is made from the text (a string), then named: pg copies a
   * config object given to query() property by property through its descriptors (utils.cloneQueryConfig), ≈8 µs per
   * statement in the profile, and a string is not copied. Its callback is set before query() sees it, so pg's
   * `query_timeout` wraps it as it wraps the promise form's. */
  private namedQuery(text: string, values: unknown[]): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      super.query(this.namedStatement(text, values, (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult))));
    });
  }

  /** pg's Query for `text` under this connection's name for it, answering `callback`. */
  private namedStatement(text: string, values: unknown[], callback: StatementCallback): pg.Query {
    const query = new pg.Query(text, withIsoDates(values)) as pg.Query & { name?: string; callback?: StatementCallback };
    query.name = this.statementName(text);
    query.callback = callback;
    return query;
  }

  /** This connection's name for `text` (most recently used last); deallocates the least recently used past the cap. */
  private statementName(text: string): string {
    let name = this.prepared.get(text);
    if (name !== undefined) this.prepared.delete(text);
    else name = `cp_${this.nextStatement++}`;
    this.prepared.set(text, name);
    if (this.prepared.size > PREPARED_STATEMENTS_PER_CONNECTION) {
      const [oldestText, oldestName] = this.prepared.entries().next().value as [string, string];
      this.prepared.delete(oldestText);
      delete (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[oldestName];
      // Queued ahead of the statement about to run. Should it fail (inside an aborted transaction), the statement stays
      // prepared on the server until the connection closes; its name is never used again.
      (super.query as (text: string) => Promise<unknown>)(`DEALLOCATE ${oldestName}`).catch(() => {});
    }
    return name;
  }

  private abandon(): void {
    const self = this as unknown as { _queryable: boolean; connection: { stream: { destroy(): void } } };
    self._queryable = false;
    self.connection.stream.destroy();
  }
}

/** `values` with each valid Date as its ISO 8601 text (UTC, `…Z`): the same instant pg's own conversion sends (local time
 * with its offset, built field by field: ≈0.01 ms per write in the profile), and every timestamp column here is
 * `timestamptz` (prisma/schema). An invalid Date is left to pg, which refuses it as before. Kysely hands each statement
 * a copy of its parameters, so they are replaced in place. */
function withIsoDates(values: unknown[]): unknown[] {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value instanceof Date && !Number.isNaN(value.getTime())) values[i] = value.toISOString();
  }
  return values;
}

/** BoundedClient sending every statement unnamed (Parse/Bind/Execute each time): PgBouncer in transaction mode before
 * 1.21 keeps no prepared statements — a name prepared on one server connection is unknown on the next. The cost is
 * measured in docs/performance.md ("Through a pooler"). */
export class UnpreparedClient extends BoundedClient {
  protected override readonly namesStatements: boolean = false;
}
