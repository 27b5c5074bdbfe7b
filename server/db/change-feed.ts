// How each process learns that an operator changed a row every request reads (an API key, a provider connection, an
// organization's settings), so it can keep such rows in memory (server/db/cached-read.ts) and still act on a change at
// the very next request, on every instance.
//
// Triggers on those tables (prisma/migrations/…_change_feed) NOTIFY `coinplane_changes` with `<Table>:<scope>` in the
// changing transaction, whoever changes them (admin API, CLI, psql): PostgreSQL delivers it on commit. Each process
// LISTENs on one connection of its own and drops what changed.
//
// A process may answer from memory only while it is sure to have applied every change committed so far — `trusted()`:
//   - The listening connection sends a heartbeat (SELECT 1) every `heartbeatMs`. PostgreSQL sends a session the
//     notifications committed before a statement ahead of that statement's answer, and pg emits them in order, so a
//     heartbeat *sent* at s and answered means every change committed before s was applied. The process trusts its
//     caches until s + `trustMs`. A stalled event loop, a slow or lost connection: the trust lapses on its own.
//   - A lost connection: trust ends at once, the caches are cleared (changes may have been missed), and the feed
//     reconnects; it trusts again after the first heartbeat on the new connection.
//   - `barrier()`: an operator write (revoking a key) answers only once every listening process has applied it. It
//     notifies `barrier:<nonce>` after the write committed; each listener acknowledges on `coinplane_change_acks` once
//     it got there (so after every change before it); the barrier resolves when every listening session of the database
//     acknowledged, or after `barrierMs` > `trustMs`: by then a process that did not acknowledge has stopped trusting
//     its caches (its last answered heartbeat was sent before the change), so it reads the database instead.
// PGlite is one process holding the only session: its feed is trusted once it listens, and a barrier is one round trip
// through its own notification.
import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export const CHANGES_CHANNEL = "coinplane_changes";
export const ACKS_CHANNEL = "coinplane_change_acks";
/** The listening sessions' application_name, so a barrier knows whose acknowledgements to wait for. */
export const LISTENER_APPLICATION_NAME = "coinplane-change-feed";

export type ChangeListener = (table: string, scope: string) => void;

export interface ChangeFeed {
  /** Whether what was cached may be answered now. */
  trusted(): boolean;
  /** Called for every change (`table`, `scope`), and with ("*", "") when changes may have been missed. */
  subscribe(listener: ChangeListener): void;
  /** Resolves once every listening process has applied every change committed before this call (see above). */
  barrier(): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeFeedTiming {
  heartbeatMs: number;
  trustMs: number;
  barrierMs: number;
}

export const DEFAULT_CHANGE_FEED_TIMING: ChangeFeedTiming = { heartbeatMs: 1_000, trustMs: 3_000, barrierMs: 3_500 };

/** Fans notifications out to subscribers and acknowledgements to waiting barriers. */
class Dispatcher {
  private listeners: ChangeListener[] = [];
  private waiting = new Map<string, (from: string) => void>();

  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** A `<Table>:<scope>` payload of the changes channel, or a barrier (returns its nonce). */
  change(payload: string): string | undefined {
    const colon = payload.indexOf(":");
    const table = payload.slice(0, colon);
    const scope = payload.slice(colon + 1);
    if (table === "barrier") return scope;
    for (const listener of this.listeners) listener(table, scope);
    return undefined;
  }

  missedChanges(): void {
    for (const listener of this.listeners) listener("*", "");
  }

  /** Waits for `nonce`'s acknowledgements; `onAck` gets each acknowledging session. */
  await(nonce: string, onAck: (from: string) => void): () => void {
    this.waiting.set(nonce, onAck);
    return () => this.waiting.delete(nonce);
  }

  ack(payload: string): void {
    const colon = payload.indexOf(":");
    this.waiting.get(payload.slice(0, colon))?.(payload.slice(colon + 1));
  }
}

const newNonce = () => randomBytes(12).toString("hex");

/** The feed of a PostgreSQL database: one dedicated connection (not from the pool), reconnecting on loss. */
export class PostgresChangeFeed implements ChangeFeed {
  private readonly connectionString: string;
  private readonly timing: ChangeFeedTiming;
  private readonly dispatcher = new Dispatcher();
  private client: pg.Client | undefined;
  private connecting: pg.Client | undefined;
  private trustedUntil = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private heartbeatInFlight = false;
  private reconnect: NodeJS.Timeout | undefined;
  private reconnectDelayMs = 250;
  private closed = false;

  constructor(connectionString: string, timing: ChangeFeedTiming = DEFAULT_CHANGE_FEED_TIMING) {
    this.connectionString = connectionString;
    this.timing = timing;
  }

  /** Connects and listens; resolves once trusted (or when the first attempt failed: it keeps retrying). */
  async start(): Promise<void> {
    await this.connect();
  }

  trusted(): boolean {
    return this.client !== undefined && Date.now() < this.trustedUntil;
  }

  subscribe(listener: ChangeListener): void {
    this.dispatcher.subscribe(listener);
  }

  async barrier(): Promise<void> {
    const client = this.client;
    if (!client) return this.sleep(this.timing.barrierMs);
    const nonce = newNonce();
    const acked = new Set<string>();
    let expected: Set<string> | undefined;
    let resolveAll: () => void = () => {};
    const all = new Promise<void>((resolve) => {
      resolveAll = resolve;
    });
    const check = () => {
      if (expected && [...expected].every((pid) => acked.has(pid))) resolveAll();
    };
    const stop = this.dispatcher.await(nonce, (from) => {
      acked.add(from);
      check();
    });
    try {
      // Who listens now, and the barrier itself, in one statement (both after the change committed).
      const { rows } = await client.query<{ pids: number[] | null }>(
        `SELECT pg_notify($1, $2) AS notified,
                (SELECT array_agg(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $3) AS pids`,
        [CHANGES_CHANNEL, `barrier:${nonce}`, LISTENER_APPLICATION_NAME],
      );
      expected = new Set((rows[0]?.pids ?? []).map(String));
      check();
      await Promise.race([all, this.sleep(this.timing.barrierMs)]);
    } catch {
      // The feed's connection failed: every process that did not see the change stops trusting within barrierMs.
      await this.sleep(this.timing.barrierMs);
    } finally {
      stop();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms).unref());
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: this.timing.heartbeatMs * 5,
      query_timeout: this.timing.heartbeatMs * 5,
      keepAlive: true,
    });
    this.connecting = client;
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      if (message.channel === ACKS_CHANNEL) return this.dispatcher.ack(message.payload ?? "");
      const barrier = this.dispatcher.change(message.payload ?? "");
      // Acknowledged on the listening connection itself, so only after every notification before the barrier.
      if (barrier !== undefined) {
        client.query("SELECT pg_notify($1, $2 || ':' || pg_backend_pid())", [ACKS_CHANNEL, barrier]).catch(() => {});
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}; LISTEN ${ACKS_CHANNEL}`);
    } catch {
      this.lost(client);
      return;
    }
    this.connecting = undefined;
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.reconnectDelayMs = 250;
    await this.beat(client);
    this.heartbeat = setInterval(() => void this.beat(client), this.timing.heartbeatMs);
    this.heartbeat.unref();
  }

  private async beat(client: pg.Client): Promise<void> {
    if (this.heartbeatInFlight || this.client !== client) return;
    this.heartbeatInFlight = true;
    const sentAt = Date.now();
    try {
      await client.query("SELECT 1");
      if (this.client === client) this.trustedUntil = sentAt + this.timing.trustMs;
    } catch {
      this.lost(client);
    } finally {
      this.heartbeatInFlight = false;
    }
  }

  /** The connection is gone (or unusable): distrust and clear at once, then reconnect with backoff. */
  private lost(client: pg.Client): void {
    const current = client === this.client;
    if (!current && client !== this.connecting) return; // an earlier connection, already replaced
    if (current) {
      this.client = undefined;
      this.trustedUntil = 0;
      clearInterval(this.heartbeat);
      this.dispatcher.missedChanges();
    } else this.connecting = undefined;
    client.end().catch(() => {});
    if (this.closed || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      void this.connect();
    }, this.reconnectDelayMs);
    this.reconnect.unref();
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, 5_000);
  }
}

/** The feed of the embedded PGlite: the process holds the only session, so it misses nothing while it listens. */
export class PgliteChangeFeed implements ChangeFeed {
  private readonly pglite: PGlite;
  private readonly dispatcher = new Dispatcher();
  private unlisten: Array<() => Promise<void>> = [];
  private listening = false;

  constructor(pglite: PGlite) {
    this.pglite = pglite;
  }

  async start(): Promise<void> {
    this.unlisten.push(
      await this.pglite.listen(CHANGES_CHANNEL, (payload) => {
        const barrier = this.dispatcher.change(payload);
        if (barrier !== undefined) this.dispatcher.ack(`${barrier}:self`);
      }),
    );
    this.listening = true;
  }

  trusted(): boolean {
    return this.listening;
  }

  subscribe(listener: ChangeListener): void {
    this.dispatcher.subscribe(listener);
  }

  async barrier(): Promise<void> {
    if (!this.listening) return;
    const nonce = newNonce();
    let stop: () => void = () => {};
    const acked = new Promise<void>((resolve) => {
      stop = this.dispatcher.await(nonce, () => resolve());
    });
    try {
      await this.pglite.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, `barrier:${nonce}`]);
      await acked;
    } finally {
      stop();
    }
  }

  async close(): Promise<void> {
    this.listening = false;
    for (const unlisten of this.unlisten.splice(0)) await unlisten().catch(() => {});
  }
}
