// PostgreSQL faults against a real server process whose DATABASE_URL goes through a cuttable TCP proxy:
// - a cut inside the business transaction → 503 STORAGE_UNAVAILABLE, nothing recorded;
// - a cut when the Idempotency-Key is read (a retry's: a fresh key is checked at close) → 503 IDEMPOTENCY_UNAVAILABLE,
//   nothing recorded;
// - a full outage → liveness stays 200, readiness 503; every keyed request → 503 SERVICE_UNAVAILABLE at authentication
//   (a cached key is trusted only while the instance hears the change feed, which the outage cuts too);
// - an unreachable provider (a JSON-RPC node behind its own proxy) → 503 SOURCE_NOT_AVAILABLE;
// - every write family (v1 payment, v2 bank transfer, custody transfer, card fund, mint) under a partition (the proxy
//   black-holes the connection at the family's business statement: nothing answers) and a reset (TCP RST at that
//   statement) → 503 with Retry-After within the request bound, nothing stored, /readyz 503 within 2 s, the same key
//   succeeds after healing with exactly one record, the process survives with no unhandled rejection in its log;
// every 503 in the surface's documented shape with Retry-After, and the same process recovers once the proxy is
// restored: the retry with the same Idempotency-Key succeeds exactly once.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOLDER, launchToken, SIGNER } from "../helpers/contracts.ts";
import { joinMember, sessionCaller } from "../helpers/members.ts";
import {
  ADMIN_TOKEN,
  connectProvider,
  createKey,
  createSystemFixture,
  type ServerProcess,
  type SystemFixture,
} from "../helpers/server-process.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";
import { api } from "../helpers/test-server.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";
import { SUPPLY, startFakeRpcNode, TOKEN } from "./fake-rpc-node.ts";

const ORG = "org_sys_pgfault";
// What the server sends in PostgreSQL's wire protocol at the points we cut at. A statement's SQL text crosses the wire
// only the first time a connection prepares it (later executions bind the prepared statement by name), so the two
// single-request cuts strike at a value only that statement carries: the bank transfer's reference (first sent by the
// closing statement of the unit of work's first transaction, which inserts the transfer) and the Idempotency-Key (sent
// first by the read of its record when the key's check at close failed before, as a retry's after a 503 did). The family sweep below strikes at the SQL
// text, so each of its cases first resets every connection through the proxy: a connection that stayed idle through a
// partition survives its healing, and one that had already prepared the family's statement (an earlier case's retry)
// would send only its name.
const BUSINESS_INSERT = /insert into ("public"\.)?"BankTransfer"/i;

const REQUEST_BOUND_MS = 6_000;

let fixture: SystemFixture;
let pgProxy: TcpProxy;
let rpcProxy: TcpProxy;
let rpcNode: Awaited<ReturnType<typeof startFakeRpcNode>>;
let server: ServerProcess;
let direct: pg.Client;
let call: ReturnType<typeof api>;
let v1: ReturnType<typeof api>;

beforeAll(async () => {
  fixture = await createSystemFixture();
  const target = new URL(fixture.db.url);
  pgProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  rpcNode = await startFakeRpcNode();
  rpcProxy = await startTcpProxy({ host: "127.0.0.1", port: rpcNode.port });
  // A short lease for the claim a two-transaction write leaves between its transactions, should an outage strand one.
  server = await fixture.start({
    databaseUrl: pgProxy.url(fixture.db.url),
    env: {
      IDEMPOTENCY_LOCK_SECONDS: "2",
      // Short bounds, so a partition answers within seconds (the defaults are in README "Operations").
      DATABASE_CONNECT_TIMEOUT_MS: "1500",
      DATABASE_STATEMENT_TIMEOUT_MS: "1000",
      DATABASE_QUERY_TIMEOUT_MS: "1500",
      REQUEST_TIMEOUT_MS: String(REQUEST_BOUND_MS),
      READINESS_TIMEOUT_MS: "1000",
    },
  });
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
  call = api(server.url, await createKey(server, { organizationId: ORG, scopes: ["payments:write", "wallets:write"] }));
  v1 = api(server.url, await createKey(server, { organizationId: ORG, scopes: ["wallets:read"] }));
  await connectProvider(server, {
    organizationId: ORG,
    category: "chain_read",
    providerSlug: "json_rpc",
    config: { rpcUrls: { ethereum: `http://127.0.0.1:${rpcProxy.port}/` }, timeoutMs: 1_000 },
  });
}, 180_000);

afterEach(() => {
  pgProxy?.restore();
  rpcProxy?.restore();
});

afterAll(async () => {
  await direct?.end().catch(() => {});
  await pgProxy?.close();
  await rpcProxy?.close();
  await rpcNode?.close();
  await fixture?.close();
});

const countRows = async (sql: string, params: unknown[]) => Number((await direct.query(sql, params)).rows[0].count);
const transfers = (reference: string) => countRows(`SELECT count(*) FROM "BankTransfer" WHERE reference = $1`, [reference]);
const idempotencyRecords = (key: string) => countRows(`SELECT count(*) FROM "IdempotencyRecord" WHERE key = $1`, [key]);
const LOOKUP_UNKNOWN = { transferId: "bt_000000000000000000000000", senderJurisdiction: "DE", receiverJurisdiction: "FR" };
const reference = () => `SYS-PG-${Math.random().toString(36).slice(2, 10).toUpperCase()}`;

type Res = Awaited<ReturnType<ReturnType<typeof api>>>;

/** The v2 RFC 9457 problem of a 503, with Retry-After. */
function expectProblem503(res: Res, code: string): void {
  expect(res.status, res.text).toBe(503);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({
    type: `https://docs.coinplane.dev/errors/${code.toLowerCase()}`,
    status: 503,
    code,
    title: expect.any(String),
    detail: expect.any(String),
    requestId: expect.any(String),
  });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

async function waitReady(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${server.url}/readyz`)).status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not become ready again");
}

/** Retries `request` while it answers 409 IDEMPOTENCY_IN_PROGRESS (a lock stranded by the outage); returns the rest. */
async function retryWhileInProgress(request: () => Promise<Res>): Promise<{ final: Res; inProgress: Res[] }> {
  const inProgress: Res[] = [];
  for (let i = 0; i < 40; i++) {
    const res = await request();
    if (!(res.status === 409 && res.json?.code === "IDEMPOTENCY_IN_PROGRESS")) return { final: res, inProgress };
    inProgress.push(res);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("still IDEMPOTENCY_IN_PROGRESS after 10 s");
}

describe("PostgreSQL cut inside the business transaction", () => {
  it("503 STORAGE_UNAVAILABLE with nothing written; after restore the same key succeeds exactly once", async () => {
    expect((await call("POST", BANK_TRANSFER, sepaTransfer(reference()), { "idempotency-key": `warm-${reference()}` })).status).toBe(201);
    const ref = reference();
    const key = `pg-business-${randomUUID()}`;
    const events = () =>
      countRows(`SELECT count(*) FROM "ActivityEvent" WHERE "organizationId" = $1 AND type = 'bank_transfer.created'`, [ORG]);
    const eventsBefore = await events();
    const cutting = pgProxy.cutWhen(ref);
    const res = await call("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key });
    expect(pgProxy.isCut, "the proxy never saw the statement to cut at").toBe(true);
    // The statement that carried the reference also carried the key (a fresh key has no read of its own): the closing statement.
    expect(await cutting).toContain(key);
    expectProblem503(res, "STORAGE_UNAVAILABLE");
    // The transaction that held the transfer and its activity event rolled back whole.
    expect(await transfers(ref)).toBe(0);
    expect(await events()).toBe(eventsBefore);

    pgProxy.restore();
    await waitReady();
    // Nothing committed, so nothing holds the key: the retry executes once (a stranded lease would answer 409 first).
    const retry = () => call("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key });
    const { final, inProgress } = await retryWhileInProgress(retry);
    for (const r of inProgress) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(final.status, final.text).toBe(201);
    expect(await transfers(ref)).toBe(1);
    expect(await events()).toBe(eventsBefore + 1);
    const replay = await retry();
    expect(replay.text).toBe(final.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await transfers(ref)).toBe(1);
  });
});

describe("PostgreSQL cut when the Idempotency-Key is read", () => {
  // A fresh key is checked by the closing statement (server/db/unit-of-work/run-unit.ts, "Checked at close"); a key whose
  // check at close failed on this instance is read first from then on. Here a first attempt is cut at its closing
  // statement (503, nothing stored), so its retry — what a client sends after a 503 — reads the key first, and that read
  // is cut.
  it("503 IDEMPOTENCY_UNAVAILABLE: the request was not executed; after restore the same key succeeds at once", async () => {
    const ref = reference();
    const key = `pg-reserve-${randomUUID()}`;
    const send = () => call("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key });
    const atClose = pgProxy.cutWhen(ref);
    expectProblem503(await send(), "STORAGE_UNAVAILABLE");
    await atClose;
    pgProxy.restore();
    await waitReady();

    const cutting = pgProxy.cutWhen(key);
    const res = await send();
    expect(pgProxy.isCut, "the proxy never saw the statement to cut at").toBe(true);
    // The first statement to carry the key is the record's read; the business statement (the reference) never left.
    expect(await cutting).not.toContain(ref);
    expectProblem503(res, "IDEMPOTENCY_UNAVAILABLE");
    expect(await transfers(ref)).toBe(0);
    expect(await idempotencyRecords(key)).toBe(0);

    pgProxy.restore();
    await waitReady();
    const retried = await send();
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await transfers(ref)).toBe(1);
    expect(await idempotencyRecords(key)).toBe(1);
  });
});

describe("PostgreSQL down", () => {
  it("liveness 200, readiness 503; every keyed request → 503 SERVICE_UNAVAILABLE at authentication", async () => {
    const cold = api(server.url, await createKey(server, { organizationId: ORG, scopes: ["payments:write"] }));
    const ref = reference();
    const key = `pg-down-${ref}`;
    expect((await call("POST", "/api/v2/agent/payments/bank-transfer/status", LOOKUP_UNKNOWN)).status).toBe(404);
    pgProxy.cut();

    const live = await fetch(`${server.url}/healthz`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "not_ready", checks: { database: "error" } });

    expectProblem503(await cold("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key }), "SERVICE_UNAVAILABLE");
    // A key that authenticated a moment ago is looked up again: with the change feed cut, no instance trusts its cache.
    expectProblem503(await call("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key }), "SERVICE_UNAVAILABLE");
    expectProblem503(await call("POST", "/api/v2/agent/payments/bank-transfer/status", LOOKUP_UNKNOWN), "SERVICE_UNAVAILABLE");
    // v1 renders the same outage as {error, code, requestId} (this key, too, was never used before).
    const sandbox = await v1("GET", "/api/v1/wallets");
    expect(sandbox.status).toBe(503);
    expect(sandbox.headers.get("content-type")).toMatch(/^application\/json/);
    expect(sandbox.json).toEqual({ error: expect.any(String), code: "service_unavailable", requestId: expect.any(String) });
    expect(Number(sandbox.headers.get("retry-after"))).toBeGreaterThan(0);

    pgProxy.restore();
    await waitReady();
    expect(await transfers(ref)).toBe(0);
    const retried = await cold("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key });
    expect(retried.status, retried.text).toBe(201);
    expect((await v1("GET", "/api/v1/wallets")).status).toBe(200);
    expect(await transfers(ref)).toBe(1);
  });
});

describe("an unreachable provider", () => {
  it("the JSON-RPC node behind a cut proxy → 503 SOURCE_NOT_AVAILABLE; restored → 200 without a restart", async () => {
    const status = () => call("POST", "/api/v2/agent/treasury/status", { contractAddress: TOKEN, chain: "ethereum" });
    const before = await status();
    expect(before.status, before.text).toBe(200);
    expect(before.json.totalSupply.valueMinor).toBe(SUPPLY.toString());
    rpcProxy.cut();
    expectProblem503(await status(), "SOURCE_NOT_AVAILABLE");
    rpcProxy.restore();
    const after = await status();
    expect(after.status, after.text).toBe(200);
    expect(after.json.totalSupply.valueMinor).toBe(SUPPLY.toString());
  });
});

describe("every write family under a partition and a reset", () => {
  const FAMILY_ORG = `${ORG}_families`;
  const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
  const CUSTODY = "/api/v2/agent/custody";
  let alice: ReturnType<typeof api>;
  let custodyWalletId: string;
  let issuerId: string;

  interface Family {
    name: string;
    table: string;
    /** The family's business statement in the wire protocol: the fault strikes when the server sends it. */
    statement: RegExp;
    request(key: string): Promise<Res>;
    ok: number;
  }
  let cardId: string;
  const families: Family[] = [
    {
      name: "v1 payment",
      table: "Payment",
      statement: /insert into ("public"\.)?"Payment"/i,
      request: (key) =>
        alice("POST", "/api/v1/payments", { amount: "10", stablecoin: "USDC", chain: "base", toAddress: EVM }, { "idempotency-key": key }),
      ok: 201,
    },
    {
      name: "v2 bank transfer",
      table: "BankTransfer",
      statement: BUSINESS_INSERT,
      request: (key) => alice("POST", BANK_TRANSFER, sepaTransfer(`SYS-FAM-${key.slice(-8).toUpperCase()}`), { "idempotency-key": key }),
      ok: 201,
    },
    {
      name: "custody transfer",
      table: "CustodyTransfer",
      statement: /insert into ("public"\.)?"CustodyTransfer"/i,
      request: (key) =>
        alice(
          "POST",
          `${CUSTODY}/transfers`,
          { walletId: custodyWalletId, destination: EVM, asset: "USDC", amountMinor: "2500000" },
          { "idempotency-key": key },
        ),
      ok: 201,
    },
    {
      name: "card fund",
      table: "CardTransaction",
      statement: /insert into ("public"\.)?"CardTransaction"/i,
      request: (key) => alice("POST", `/api/v2/agent/cards/${cardId}/fund`, { amount: "5.00", asset: "USDC" }, { "idempotency-key": key }),
      ok: 200,
    },
    {
      name: "mint",
      table: "IssuanceRequest",
      statement: /insert into ("public"\.)?"IssuanceRequest"/i,
      request: (key) =>
        alice(
          "POST",
          "/api/v2/agent/treasury/mint",
          { issuerId, amountMinor: "1000000", signerAddress: SIGNER, to: HOLDER, reason: "Fault test" },
          { "idempotency-key": key },
        ),
      ok: 201,
    },
  ];

  const count = (table: string) => countRows(`SELECT count(*) FROM "${table}" WHERE "organizationId" = $1`, [FAMILY_ORG]);

  beforeAll(async () => {
    const scopes = ["payments:write", "wallets:write", "cards:write", "projects:write"];
    alice = api(server.url, await createKey(server, { organizationId: FAMILY_ORG, scopes, actor: "alice" }));
    // A person decides the approval: a member (approver) signed in with a verified second factor (issue 24).
    const bobMember = await joinMember({ url: server.url, adminToken: ADMIN_TOKEN }, FAMILY_ORG, { role: "approver", secondFactor: true });
    const bob = sessionCaller(server.url, bobMember);
    const idem = () => ({ "idempotency-key": randomUUID() });
    await connectProvider(server, { organizationId: FAMILY_ORG, category: "custody" });
    const requested = await alice("POST", `${CUSTODY}/wallets`, { label: "Fault float", chain: "base", type: "mpc" }, idem());
    expect(requested.status, requested.text).toBe(201);
    expect((await bob("POST", `/api/v2/agent/approvals/${requested.json.approvalRequestId}/approve`, {})).status).toBe(200);
    const active = await alice(
      "POST",
      `${CUSTODY}/wallets`,
      { custodyWalletId: requested.json.custodyWalletId, approvalRequestId: requested.json.approvalRequestId },
      idem(),
    );
    expect(active.json.status, active.text).toBe("active");
    custodyWalletId = active.json.custodyWalletId;
    const programme = await alice(
      "POST",
      "/api/v2/agent/cards/programmes",
      {
        name: `Faults ${randomUUID()}`,
        network: "visa",
        binSponsor: "Sutton Bank",
        jurisdictions: ["US"],
        fundingAsset: "USDC",
        fundingModel: "prefunded",
      },
      idem(),
    );
    expect(programme.status, programme.text).toBe(201);
    const card = await alice(
      "POST",
      "/api/v2/agent/cards/issue",
      {
        programmeId: programme.json.programmeId,
        cardholder: {
          name: "Jenny Rosen",
          email: `jenny.${randomUUID()}@acme.example`,
          dateOfBirth: "1990-04-17",
          billingAddress: { line1: "1 Market Street", city: "San Francisco", postalCode: "94105", state: "CA", country: "US" },
        },
      },
      idem(),
    );
    expect(card.status, card.text).toBe(201);
    cardId = card.json.cardId;
    issuerId = (await launchToken(alice)).issuerId;
  }, 180_000);

  /** /readyz during the fault: 503 within 2 s. */
  async function expectNotReadyWithin2s(): Promise<void> {
    const started = Date.now();
    const ready = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(ready.status).toBe(503);
  }

  function expect503(res: Res): void {
    expect(res.status, res.text).toBe(503);
    expect(["SERVICE_UNAVAILABLE", "STORAGE_UNAVAILABLE", "IDEMPOTENCY_UNAVAILABLE", "service_unavailable"]).toContain(res.json?.code);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  }

  /** Every connection the server holds is reset and it reconnects: the next statements cross the wire as text. */
  async function startOnFreshConnections(): Promise<void> {
    pgProxy.reset();
    pgProxy.restore();
    await waitReady();
    expect(pgProxy.openConnections, "connections opened after the reset").toBeGreaterThan(0);
  }

  function expectProcessHealthy(): void {
    expect(server.child.exitCode).toBeNull();
    const { stdout, stderr } = server.output();
    expect(`${stdout}\n${stderr}`).not.toMatch(/unhandled ?rejection|uncaught ?exception/i);
  }

  for (const fault of ["blackhole", "reset"] as const) {
    for (const family of families) {
      it(`${family.name}, ${fault === "blackhole" ? "partition" : "reset"}: 503 within the bound, nothing stored; healed, the same key succeeds once`, async () => {
        const key = `fam-${fault}-${randomUUID()}`;
        await startOnFreshConnections();
        const before = await count(family.table);
        const striking = pgProxy.faultWhen(family.statement, fault);
        const started = Date.now();
        const res = await family.request(key);
        const elapsed = Date.now() - started;
        expect(pgProxy.mode, "the proxy never saw the statement to strike at").not.toBe("pass");
        await striking;
        expect503(res);
        expect(elapsed).toBeLessThan(REQUEST_BOUND_MS + 1_000);
        if (fault === "blackhole") await expectNotReadyWithin2s();
        // Nothing of the request is stored: no business row, no idempotency record (its transaction rolled back).
        expect(await count(family.table)).toBe(before);
        expect(await idempotencyRecords(key)).toBe(0);

        pgProxy.restore();
        await waitReady();
        const { final } = await retryWhileInProgress(() => family.request(key));
        expect(final.status, final.text).toBe(family.ok);
        expect(final.headers.get("idempotent-replayed")).toBeNull();
        expect(await count(family.table)).toBe(before + 1);
        expect(await idempotencyRecords(key)).toBe(1);
        const replay = await family.request(key);
        expect(replay.headers.get("idempotent-replayed")).toBe("true");
        expect(await count(family.table)).toBe(before + 1);
        expectProcessHealthy();
      }, 60_000);
    }
  }
});
