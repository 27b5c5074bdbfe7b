// Scale-out: separate server processes on one PostgreSQL database and one Redis, requests spread over them.
// - idempotency: one Idempotency-Key sent 50 times concurrently to both → one effect, the rest 409 or byte-identical replays;
// - API keys: a key revoked through one instance is refused by the other on its very next request (each instance keeps
//   keys in memory; the revocation answers once every instance dropped its copy: server/db/change-feed.ts);
// - rate limits: a budget of 10 per key is 10 in total over both instances (Redis), not 10 each; so is a budget of 10
//   authentication failures per client address;
// - optimistic concurrency: concurrent versioned updates through both → exactly one wins, the rest 409;
// - corridor dispatcher: both in-process schedulers plus concurrent dispatch calls on both → each step applied once.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corridor, DISPATCH, RUN, SIMULATE } from "../helpers/corridors.ts";
import { type JoinedMember, joinMember, sessionCaller } from "../helpers/members.ts";
import {
  ADMIN_TOKEN,
  connectProvider,
  createKey,
  createSystemFixture,
  REDIS_URL,
  SCHEDULER_SECRET,
  type ServerProcess,
  type SystemFixture,
} from "../helpers/server-process.ts";
import { api } from "../helpers/test-server.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";

const ORG = "org_sys_multi";
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";
const prefix = () => `cp:test:${randomBytes(6).toString("hex")}`;

type Call = ReturnType<typeof api>;
type Pair<T> = [T, T];
/** Alternates between the two: even i → the first, odd i → the second. */
const pick = <T>(pair: Pair<T>, i: number): T => (i % 2 === 0 ? pair[0] : pair[1]);
let fixture: SystemFixture;
let direct: pg.Client;
/** Two instances with both in-process schedulers on (100 ms). */
let a: Pair<ServerProcess>;
/** Two more with a budget of 10 requests per key. */
let limited: Pair<ServerProcess>;

beforeAll(async () => {
  fixture = await createSystemFixture();
  // The first instance applies the migrations; the other three start at once on the migrated database.
  const shared = { REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix() };
  const first = await fixture.start({ env: { ...shared, SCHEDULER_INTERVAL_MS: "100" } });
  const limitedEnv = { REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix(), RATE_LIMIT_PER_KEY: "10" };
  const [second, l1, l2] = await Promise.all([
    fixture.start({ env: { ...shared, SCHEDULER_INTERVAL_MS: "100" } }),
    fixture.start({ env: limitedEnv }),
    fixture.start({ env: limitedEnv }),
  ]);
  a = [first, second];
  limited = [l1, l2];
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
  // No warm-up: the first request of a route compiles its validators and stalls the event loop; the bursts below must
  // still see a healthy Redis as healthy (server/lib/with-io-timeout.ts), not 503 RATE_LIMIT_UNAVAILABLE.
}, 180_000);

afterAll(async () => {
  await direct?.end().catch(() => {});
  await fixture?.close();
});

const count = async (sql: string, params: unknown[]) => Number((await direct.query(sql, params)).rows[0].count);

/** One client per instance for the same key. */
async function clients(servers: Pair<ServerProcess>, body: Parameters<typeof createKey>[1]): Promise<Pair<Call>> {
  const key = await createKey(servers[0], body);
  return [api(servers[0].url, key), api(servers[1].url, key)];
}

describe("idempotency across instances", () => {
  it("50 concurrent requests with one Idempotency-Key over two instances: one transfer, 409s or identical replays", async () => {
    const [one, two] = await clients(a, { organizationId: ORG, scopes: ["payments:write"] });
    const reference = `SYS-MULTI-${randomBytes(4).toString("hex").toUpperCase()}`;
    const headers = { "idempotency-key": randomUUID() };
    const send = (i: number) => (i % 2 === 0 ? one : two)("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => send(i)));

    const created = results.filter((r) => r.status === 201);
    const inProgress = results.filter((r) => r.status === 409);
    expect(created.length + inProgress.length, results.map((r) => `${r.status} ${r.text}`).join("\n")).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of inProgress) {
      expect(r.json.code).toBe("IDEMPOTENCY_IN_PROGRESS");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // The executed one and every replay are the same bytes; only replays say so.
    for (const r of created) expect(r.text).toBe(created[0]?.text);
    expect(created.filter((r) => r.headers.get("idempotent-replayed") !== "true").length).toBe(1);
    expect(await count(`SELECT count(*) FROM "BankTransfer" WHERE reference = $1`, [reference])).toBe(1);
    expect(await count(`SELECT count(*) FROM "ActivityEvent" WHERE "resourceId" = $1`, [created[0]?.json.id])).toBe(1);

    // Afterwards each instance replays the stored answer.
    for (const client of [one, two]) {
      const replay = await client("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
      expect(replay.text).toBe(created[0]?.text);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    }
  });

  // A fresh key is checked by the first transaction's closing statement (server/db/unit-of-work/run-unit.ts, "Checked at
  // close"); an instance that never saw the key meets its standing record at the guard, then reads it.
  it("a key used on one instance, then on the other (which never saw it): replayed with the same body, 422 with another", async () => {
    const [one, two] = await clients(a, { organizationId: ORG, scopes: ["payments:write"] });
    const reference = `SYS-ELSEWHERE-${randomBytes(4).toString("hex").toUpperCase()}`;
    const headers = { "idempotency-key": randomUUID() };
    const created = await one("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
    expect(created.status, created.text).toBe(201);
    const replay = await two("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(created.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    // And the other way round: a key created on the second, sent with another body to the first.
    const second = { "idempotency-key": randomUUID() };
    expect((await two("POST", BANK_TRANSFER, sepaTransfer(`${reference}-2`), second)).status).toBe(201);
    const reused = await one("POST", BANK_TRANSFER, sepaTransfer(`${reference}-OTHER`), second);
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await count(`SELECT count(*) FROM "BankTransfer" WHERE reference LIKE $1`, [`${reference}%`])).toBe(2);
    expect(await count(`SELECT count(*) FROM "SimBankTransfer" WHERE "idempotencyKey" = $1`, [created.json.id])).toBe(1);
  });
});

describe("API key revocation across instances", () => {
  it("a key revoked through one instance is refused by the other on its very next request", async () => {
    const created = await fetch(`${a[0].url}/api/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ organizationId: ORG, environment: "sandbox", scopes: ["wallets:read"] }),
    });
    const { id, key } = (await created.json()) as { id: string; key: string };
    const onSecond = api(a[1].url, key);
    // Used on the second instance first, so its in-memory copy of the key is warm there.
    for (let i = 0; i < 3; i++) expect((await onSecond("GET", "/api/v1/wallets")).status).toBe(200);
    const revoked = await fetch(`${a[0].url}/api/admin/keys/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revoked.status).toBe(200);
    const next = await onSecond("GET", "/api/v1/wallets");
    expect(next.status).toBe(401);
    expect(next.json.code).toBe("unauthorized");
  });
});

describe("rate limits across instances (Redis)", () => {
  it("a budget of 10 per key allows exactly 10 of 30 concurrent requests spread over two instances", async () => {
    const [one, two] = await clients(limited, { organizationId: `${ORG}_rl`, scopes: ["wallets:read"] });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => pick([one, two], i)("GET", "/api/v1/wallets")));
    const allowed = results.filter((r) => r.status === 200);
    const limitedResults = results.filter((r) => r.status === 429);
    expect(allowed.length, results.map((r) => `${r.status} ${r.status === 503 ? r.text : ""}`).join(",")).toBe(10);
    expect(limitedResults.length).toBe(20);
    for (const r of limitedResults) {
      expect(r.json.code).toBe("rate_limited");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // One shared counter: the allowed requests saw remaining 9 … 0, each once, whichever instance served them.
    const remaining = allowed.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((x, y) => x - y);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Both instances served some of the budget and refused some of the rest.
    for (const s of limited) {
      const served = results.filter((_, i) => pick(limited, i) === s);
      expect(served.some((r) => r.status === 429)).toBe(true);
    }
  });
});

describe("authentication-failure limit across instances (Redis)", () => {
  /** Two more instances sharing Redis and a prefix, with a budget of 10 authentication failures per client address. */
  let guarded: Pair<ServerProcess>;
  beforeAll(async () => {
    const env = { REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix(), RATE_LIMIT_AUTH_FAILURES: "10" };
    guarded = (await Promise.all([fixture.start({ env }), fixture.start({ env })])) as Pair<ServerProcess>;
  }, 180_000);

  it("40 wrong keys from one address over two instances: exactly 10 answered 401, the rest 429; a valid key still works on both", async () => {
    const valid = await clients(guarded, { organizationId: `${ORG}_auth`, scopes: ["wallets:read"] });
    const wrong = guarded.map((s) => api(s.url, `cp_sandbox_${randomBytes(32).toString("base64url").replace(/[-_]/g, "x").slice(0, 43)}`));
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => pick(wrong as Pair<Call>, i)("GET", "/api/v1/wallets")));
    const statuses = results.map((r) => r.status);
    // One shared budget: 10 failures in total, not 10 per instance.
    expect(statuses.filter((s) => s === 401).length, statuses.join(",")).toBe(10);
    expect(statuses.filter((s) => s === 429).length).toBe(30);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.json.code).toBe("rate_limited");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(r.headers.get("ratelimit-policy")).toMatch(/^"auth-failures";q=10;w=\d+$/);
    }
    // Both instances refused some: the budget spent through one is seen by the other.
    for (const s of guarded) expect(results.some((r, i) => pick(guarded, i) === s && r.status === 429)).toBe(true);
    // Successful authentications do not spend (nor are refused by) the address's failure budget.
    for (const call of valid) {
      const ok = await call("GET", "/api/v1/wallets");
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit-policy")).toMatch(/^"default";/);
    }
    expect((await wrong[1]?.("GET", "/api/v1/wallets"))?.status).toBe(429);
  });
});

describe("optimistic concurrency across instances", () => {
  const WALLETS = "/api/v2/agent/custody/wallets";
  const TRANSFERS = "/api/v2/agent/custody/transfers";
  const APPROVE = (id: string) => `/api/v2/agent/approvals/${id}/approve`;
  const REJECT = (id: string) => `/api/v2/agent/approvals/${id}/reject`;
  const org = `${ORG}_occ`;
  let alice: Pair<Call>;
  let bob: Pair<Call>;
  let carol: Pair<Call>;
  let bobMember: JoinedMember;
  let carolMember: JoinedMember;
  let walletId: string;

  beforeAll(async () => {
    alice = await clients(a, { organizationId: org, scopes: ["wallets:write"], actor: "alice" });
    // Approvals are decided by people: members (approvers) signed in with a verified second factor, each session usable
    // through either instance (issue 24).
    const people = { url: a[0].url, adminToken: ADMIN_TOKEN };
    bobMember = await joinMember(people, org, { role: "approver", secondFactor: true, email: "bob@occ.example" });
    carolMember = await joinMember(people, org, { role: "approver", secondFactor: true, email: "carol@occ.example" });
    bob = [sessionCaller(a[0].url, bobMember), sessionCaller(a[1].url, bobMember)];
    carol = [sessionCaller(a[0].url, carolMember), sessionCaller(a[1].url, carolMember)];
    await connectProvider(a[0], { organizationId: org, category: "custody" });
    const requested = await alice[0]("POST", WALLETS, { label: "Scale-out float", chain: "base", type: "mpc" }, idem());
    expect(requested.status, requested.text).toBe(201);
    expect((await bob[1]("POST", APPROVE(requested.json.approvalRequestId), {})).status).toBe(200);
    const active = await alice[1](
      "POST",
      WALLETS,
      { custodyWalletId: requested.json.custodyWalletId, approvalRequestId: requested.json.approvalRequestId },
      idem(),
    );
    expect(active.json.status, active.text).toBe("active");
    walletId = active.json.custodyWalletId;
  });

  const idem = () => ({ "idempotency-key": randomUUID() });
  const requestTransfer = async () => {
    const res = await alice[0]("POST", TRANSFERS, { walletId, destination: CLEAN, asset: "USDC", amountMinor: "2500000" }, idem());
    expect(res.status, res.text).toBe(201);
    return res.json as { custodyTransferId: string; approvalRequestId: string };
  };

  it("20 concurrent shape-3 advances at one expectedVersion over two instances: one 200, nineteen 409", async () => {
    const transfer = await requestTransfer();
    expect((await bob[0]("POST", APPROVE(transfer.approvalRequestId), {})).status).toBe(200);
    const submitted = await alice[1](
      "POST",
      TRANSFERS,
      { custodyTransferId: transfer.custodyTransferId, approvalRequestId: transfer.approvalRequestId },
      idem(),
    );
    expect(submitted.json, submitted.text).toMatchObject({ status: "submitted", version: 3 });

    const body = { custodyTransferId: transfer.custodyTransferId, expectedVersion: 3 };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => pick(alice, i)("POST", TRANSFERS, body, idem())));
    const ok = results.filter((r) => r.status === 200);
    const conflicts = results.filter((r) => r.status === 409);
    const answers = results.map((r) => `${r.status} ${r.json?.code ?? ""}`).join(",");
    expect(ok.length, answers).toBe(1);
    expect(conflicts.length, answers).toBe(19);
    for (const c of conflicts) expect(c.json.code).toBe("CUSTODY_STATE_CONFLICT");
    expect(ok[0]?.json).toMatchObject({ status: "completed", version: 4 });
    const row = await direct.query(`SELECT status, version FROM "CustodyTransfer" WHERE id = $1`, [transfer.custodyTransferId]);
    expect(row.rows[0]).toEqual({ status: "completed", version: 4 });
    // The version rose by exactly one: the losers changed nothing (the provider's record agrees).
    const sim = await direct.query(`SELECT state FROM "SimCustodyTransfer" WHERE "idempotencyKey" = $1`, [transfer.custodyTransferId]);
    expect(sim.rows).toEqual([{ state: "completed" }]);
  });

  it("concurrent approve (bob's session, one instance) and reject (carol's, the other) of one approval: exactly one decision wins", async () => {
    const transfer = await requestTransfer();
    const id = transfer.approvalRequestId;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? bob[0]("POST", APPROVE(id), {}) : carol[1]("POST", REJECT(id), {}))),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length, results.map((r) => `${r.status} ${r.json?.code ?? ""}`).join(",")).toBe(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.json.code).toBe("STATE_CONFLICT");
    }
    const row = (await direct.query(`SELECT status, version, "decidedByActor" FROM "ApprovalRequest" WHERE id = $1`, [id])).rows[0];
    expect(row).toEqual({
      status: ok[0]?.json.status,
      version: 2,
      decidedByActor: ok[0]?.json.status === "approved" ? bobMember.email : carolMember.email,
    });
  });
});

describe("corridor dispatcher across instances", () => {
  it("both schedulers (100 ms) and concurrent dispatch calls on both instances: every step applied exactly once", async () => {
    const [one, two] = await clients(a, { organizationId: `${ORG}_cor`, scopes: ["payments:write", "wallets:write"] });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await (i % 2 === 0 ? one : two)("POST", SIMULATE, corridor({ amount: `${300 + i}.00` }), {
        "idempotency-key": randomUUID(),
      });
      expect(res.status, res.text).toBe(202);
      ids.push(res.json.workflowRunId);
    }
    const dispatchers: Pair<Call> = [api(a[0].url), api(a[1].url)];
    const dispatched: Array<{ workflowRunId: string; step: string }> = [];
    const deadline = Date.now() + 30_000;
    let open = ids.length;
    while (open > 0 && Date.now() < deadline) {
      const rounds = await Promise.all(
        [0, 1, 2, 3].map((i) => pick(dispatchers, i)("POST", DISPATCH, undefined, { "x-scheduler-secret": SCHEDULER_SECRET })),
      );
      for (const r of rounds) {
        expect(r.status, r.text).toBe(200);
        dispatched.push(...r.json.dispatched);
      }
      open = await count(`SELECT count(*) FROM "WorkflowRun" WHERE id = ANY($1) AND status IN ('queued', 'running')`, [ids]);
    }
    expect(open).toBe(0);
    // No step was reported twice by the dispatch endpoints (the schedulers advanced the rest).
    const pairs = dispatched.filter((d) => ids.includes(d.workflowRunId)).map((d) => `${d.workflowRunId}:${d.step}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const id of ids) {
      const run = await one("GET", RUN(id));
      expect(run.json.status).toBe("completed");
      expect(run.json.steps.map((s: { name: string; status: string; attempts: number }) => [s.name, s.status, s.attempts])).toEqual([
        ["screening", "succeeded", 1],
        ["fx_quote", "succeeded", 1],
        ["onramp_bank_debit", "succeeded", 1],
        ["custody_transfer", "succeeded", 1],
        ["offramp_payout", "succeeded", 1],
      ]);
      expect(await count(`SELECT count(*) FROM "SimCustodyTransfer" WHERE "idempotencyKey" = $1`, [`${id}:custody_transfer`])).toBe(1);
    }
  }, 60_000);
});
