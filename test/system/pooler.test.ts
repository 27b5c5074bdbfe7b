// Through PgBouncer 1.18 in transaction mode (Debian's; scripts/pgbouncer.ts starts a private one for this file): two
// real server processes whose DATABASE_URL is the pooler (DATABASE_POOLER=transaction) and whose DATABASE_DIRECT_URL
// is PostgreSQL itself (the change feed's LISTEN, the migrations). The second reaches the pooler through a cuttable TCP
// proxy (test/helpers/tcp-proxy.ts). What a transaction pooler breaks, checked here:
// - a start behind a pooler without the direct URL is refused, saying what is missing;
// - named prepared statements (off behind the pooler: a name prepared on one server connection is unknown on the next)
//   and session state (the timeouts travel in each BEGIN as SET LOCAL, never onto another client's connection);
// - idempotency across instances, a key revoked on one instance refused on the other within 1 s, webhooks delivered
//   once by the two workers, the reconciler settling an unknown outcome, and a cut connection answering 503 then healing.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgBouncer, startPgBouncer } from "../../scripts/pgbouncer.ts";
import { openDatabase } from "../../server/db/open-database.ts";
import {
  ADMIN_TOKEN,
  BARE_SERVER_ENV,
  createKey,
  createSystemFixture,
  REDIS_URL,
  type ServerProcess,
  type SystemFixture,
  startServerProcess,
  waitFor,
} from "../helpers/server-process.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";
import { api } from "../helpers/test-server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";

const ORG = "org_sys_pooler";
/** A cut answers 503 well within this (the connection fails at once; nothing waits for a timeout). */
const REQUEST_BOUND_MS = 6_000;

let fixture: SystemFixture;
let bouncer: PgBouncer;
let proxy: TcpProxy;
let receiver: WebhookReceiver;
let direct: pg.Client;
/** [through the pooler, through the proxy in front of the pooler]. */
let servers: [ServerProcess, ServerProcess];

const poolerEnv = (directUrl: string) => ({
  DATABASE_POOLER: "transaction",
  DATABASE_DIRECT_URL: directUrl,
  REDIS_URL,
  RATE_LIMIT_KEY_PREFIX: `cp:test:pooler:${randomUUID()}`,
  SCHEDULER_INTERVAL_MS: "100",
  RECONCILE_AFTER_SECONDS: "1",
  WEBHOOK_SECRETS_KEY: BARE_SERVER_ENV.WEBHOOK_SECRETS_KEY as string,
  WEBHOOK_POLL_INTERVAL_MS: "50",
  // The default database bounds: a cut (below) fails at once, and a cold instance's first burst (its validators
  // compiling on a loaded 2-core machine) must not time out waiting for a pooled connection.
  IDEMPOTENCY_LOCK_SECONDS: "2",
});

beforeAll(async () => {
  [fixture, bouncer, receiver] = await Promise.all([createSystemFixture(), startPgBouncer(), startWebhookReceiver()]);
  proxy = await startTcpProxy({ host: "127.0.0.1", port: bouncer.port });
  const throughPooler = bouncer.url(fixture.db.url);
  // The first applies the migrations (on the direct URL); the second starts on the migrated database.
  const first = await fixture.start({ databaseUrl: throughPooler, env: poolerEnv(fixture.db.url) });
  const second = await fixture.start({ databaseUrl: proxy.url(throughPooler), env: poolerEnv(fixture.db.url) });
  servers = [first, second];
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
  // Warm: each instance's first keyed write and first 409 compile their validators (seconds of CPU on a loaded
  // machine, the same without a pooler), which would otherwise eat the burst's connection-acquire bound.
  const key = await createKey(first, { organizationId: ORG, scopes: ["payments:write"] });
  for (const server of servers) {
    const headers = { "idempotency-key": randomUUID() };
    const send = () => api(server.url, key)("POST", BANK_TRANSFER, sepaTransfer(`SYS-POOL-WARM-${server.port}`), headers);
    // Whatever they answer (a 409 or a 503 while cold): only the compiling matters here.
    await Promise.all([send(), send()]);
  }
}, 180_000);

afterAll(async () => {
  await direct?.end().catch(() => {});
  await fixture?.close();
  await proxy?.close();
  await bouncer?.stop();
  await receiver?.close();
});

const count = async (text: string, params: unknown[]) => Number((await direct.query(text, params)).rows[0].count);

describe("starting behind a pooler", () => {
  it("refuses to start without DATABASE_DIRECT_URL and says what is missing", async () => {
    const start = startServerProcess({
      databaseUrl: bouncer.url(fixture.db.url),
      env: { DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: "" },
      readyTimeoutMs: 30_000,
    });
    await expect(start).rejects.toThrow(/DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL/);
  });

  it("runs each transaction with its bounds as SET LOCAL and sends no named prepared statement", async () => {
    const db = await openDatabase({
      url: bouncer.url(fixture.db.url),
      poolSize: 2,
      migrate: false,
      timeouts: { statementTimeoutMs: 1234, idleInTransactionTimeoutMs: 4321 },
      pooler: { mode: "transaction", directUrl: fixture.db.url, preparedStatements: false },
    });
    try {
      const inside = await db.kysely.transaction().execute(async (tx) => {
        // A locking read: it begins the transaction (server/db/lazy-transaction.ts).
        await sql`SELECT 1 FROM "Organization" FOR UPDATE`.execute(tx);
        return (
          await sql<{ s: string; i: string }>`SELECT current_setting('statement_timeout') AS s,
          current_setting('idle_in_transaction_session_timeout') AS i`.execute(tx)
        ).rows[0];
      });
      expect(inside).toEqual({ s: "1234ms", i: "4321ms" });
      // Gone with the transaction: no other client of the pooler's server connection inherits it.
      const after = await sql<{ s: string }>`SELECT current_setting('statement_timeout') AS s`.execute(db.kysely);
      expect(after.rows[0]?.s).not.toBe("1234ms");
      // A statement past its bound inside a transaction is cancelled by the server.
      await expect(
        db.kysely.transaction().execute(async (tx) => {
          await sql`SELECT 1 FROM "Organization" FOR UPDATE`.execute(tx);
          await sql`SELECT pg_sleep(3)`.execute(tx);
        }),
      ).rejects.toThrow(/statement timeout/);
      // The same statement text many times over both connections: unnamed, it never meets a server connection that
      // lacks its name.
      const same = () => db.kysely.selectFrom("Organization").select("id").where("id", "=", ORG).execute();
      await Promise.all(Array.from({ length: 40 }, same));
    } finally {
      await db.close();
    }
  });
});

describe("two instances through the pooler", () => {
  it("one Idempotency-Key sent 20 times over both: one transfer, the rest 409 or identical replays", async () => {
    const key = await createKey(servers[0], { organizationId: ORG, scopes: ["payments:write", "payments:read"] });
    const calls = servers.map((s) => api(s.url, key));
    const reference = `SYS-POOL-${randomUUID().slice(0, 8).toUpperCase()}`;
    const headers = { "idempotency-key": randomUUID() };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (calls[i % 2] as ReturnType<typeof api>)("POST", BANK_TRANSFER, sepaTransfer(reference), headers),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    // 201 (the one execution or its replays), 409 in progress; a 503 with Retry-After recorded nothing (on a loaded
    // 2-core machine a request may wait past its connection-acquire bound, with or without the pooler).
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s !== 201 && s !== 409 && s !== 503),
      results.map((r) => `${r.status} ${r.text}`).join("\n"),
    ).toEqual([]);
    for (const r of results.filter((r) => r.status === 503)) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of created) expect(r.text).toBe(created[0]?.text);
    expect(await count(`SELECT count(*) FROM "BankTransfer" WHERE reference = $1`, [reference])).toBe(1);
    // Afterwards each instance replays the stored answer.
    for (const call of calls) {
      const replay = await call("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
      expect(replay.text).toBe(created[0]?.text);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    }
  });

  it("a key revoked through one instance is refused by the other within 1 s (the change feed on the direct URL)", async () => {
    const made = await fetch(`${servers[0].url}/api/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ organizationId: ORG, environment: "sandbox", scopes: ["wallets:read"] }),
    });
    const { id, key } = (await made.json()) as { id: string; key: string };
    const onSecond = api(servers[1].url, key);
    for (let i = 0; i < 3; i++) expect((await onSecond("GET", "/api/v1/wallets")).status).toBe(200);
    const revoked = await fetch(`${servers[0].url}/api/admin/keys/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revoked.status).toBe(200);
    const since = Date.now();
    expect(await waitFor(async () => (await onSecond("GET", "/api/v1/wallets")).status === 401, 1_000)).toBe(true);
    expect(Date.now() - since).toBeLessThan(1_000);
  });

  it("webhooks: the two workers deliver each event exactly once", async () => {
    const key = await createKey(servers[0], { organizationId: ORG, scopes: ["wallets:write", "webhooks:write"] });
    const calls = servers.map((s) => api(s.url, key));
    const endpoint = await (calls[0] as ReturnType<typeof api>)(
      "POST",
      "/api/v2/agent/webhook-endpoints",
      { url: `${receiver.url}/pooled`, enabledEvents: ["wallet.created"] },
      { "idempotency-key": randomUUID() },
    );
    expect(endpoint.status, endpoint.text).toBe(201);
    const wallets = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (calls[i % 2] as ReturnType<typeof api>)("POST", "/api/v1/wallets", { chain: "base" })),
    );
    for (const w of wallets) expect(w.status, w.text).toBe(201);
    expect(await waitFor(() => receiver.at("/pooled").length >= 10, 20_000), `${receiver.at("/pooled").length} of 10`).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // a second delivery of an event would land now
    const ids = receiver.at("/pooled").map((r) => String(r.headers["webhook-id"]));
    expect(new Set(ids).size).toBe(10);
    expect(ids).toHaveLength(10);
  });

  it("the reconciler settles an unknown outcome (777.77: executed, answer lost) through the pooler", async () => {
    const key = await createKey(servers[0], { organizationId: ORG, scopes: ["payments:write", "payments:read"] });
    const call = api(servers[0].url, key);
    const headers = { "idempotency-key": randomUUID() };
    const body = sepaTransfer(`SYS-POOL-777-${randomUUID().slice(0, 6)}`, "777.77");
    const first = await call("POST", BANK_TRANSFER, body, headers);
    expect([first.status, first.json.status]).toEqual([202, "processing"]);
    let final: Awaited<ReturnType<typeof call>> | undefined;
    const settled = await waitFor(async () => {
      const res = await call("POST", BANK_TRANSFER, body, headers);
      if (res.status === 409 || res.status === 202) return false;
      final = res;
      return true;
    }, 20_000);
    expect(settled).toBe(true);
    expect(final?.headers.get("idempotent-replayed")).toBe("true");
    expect(await count(`SELECT count(*) FROM "ProviderIntent" WHERE "resourceId" = $1`, [first.json.id])).toBe(0);
  });

  it("a cut between an instance and the pooler answers 503 within the bound; once healed, the same key succeeds once", async () => {
    const key = await createKey(servers[0], { organizationId: ORG, scopes: ["payments:write"] });
    const call = api(servers[1].url, key);
    const reference = `SYS-POOL-CUT-${randomUUID().slice(0, 6)}`;
    const headers = { "idempotency-key": randomUUID() };
    proxy.cut();
    try {
      const started = Date.now();
      const res = await call("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
      expect(res.status, res.text).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(REQUEST_BOUND_MS);
      expect(await count(`SELECT count(*) FROM "BankTransfer" WHERE reference = $1`, [reference])).toBe(0);
    } finally {
      proxy.restore();
    }
    let healed: Awaited<ReturnType<typeof call>> | undefined;
    expect(
      await waitFor(async () => {
        healed = await call("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
        return healed.status !== 503;
      }, 10_000),
    ).toBe(true);
    expect(healed?.status, healed?.text).toBe(201);
    expect(await count(`SELECT count(*) FROM "BankTransfer" WHERE reference = $1`, [reference])).toBe(1);
  });
});
