// An Idempotency-Key claim is released when its request ends (issue 26), on real PostgreSQL through a cuttable proxy,
// with two instances on one database and a lease far longer than the 2 s the retry may take (IDEMPOTENCY_LOCK_SECONDS
// 30): the connection dies at the instant the first transaction of a bank transfer commits — the intent and the
// in-progress claim committed, the server never heard so and answered 503 without calling the provider. Once the
// database answers again, the same key executes within 2 s on either instance (the holder releases the claim and undoes
// the intent within about a second of healing; on the holder itself the retry takes the claim over at once), and
// exactly one transfer exists. Before, the claim stood until its lease ended: 409 IDEMPOTENCY_IN_PROGRESS meanwhile.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createKey, createSystemFixture, type ServerProcess, type SystemFixture } from "../helpers/server-process.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";
import { api } from "../helpers/test-server.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";

const ORG = "org_sys_claims";
const LEASE_SECONDS = 30;
const HEALED_WITHIN_MS = 2_000;

let fixture: SystemFixture;
let pgProxy: TcpProxy;
let holder: ServerProcess;
let other: ServerProcess;
let direct: pg.Client;
let onHolder: ReturnType<typeof api>;
let onOther: ReturnType<typeof api>;

beforeAll(async () => {
  fixture = await createSystemFixture();
  const target = new URL(fixture.db.url);
  pgProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const env = {
    IDEMPOTENCY_LOCK_SECONDS: String(LEASE_SECONDS),
    // Short bounds, so a cut connection answers at once (the defaults are in README "Operations").
    DATABASE_CONNECT_TIMEOUT_MS: "1500",
    DATABASE_STATEMENT_TIMEOUT_MS: "1000",
    DATABASE_QUERY_TIMEOUT_MS: "1500",
    READINESS_TIMEOUT_MS: "1000",
  };
  // One after the other: the first applies the migrations.
  holder = await fixture.start({ databaseUrl: pgProxy.url(fixture.db.url), env });
  other = await fixture.start({ databaseUrl: pgProxy.url(fixture.db.url), env });
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
  const key = await createKey(holder, { organizationId: ORG, scopes: ["payments:write"] });
  onHolder = api(holder.url, key);
  onOther = api(other.url, key);
  // Warm: each instance has served the operation once (validators compiled, connections open) before anything is timed.
  for (const call of [onHolder, onOther]) {
    const warm = await call("POST", BANK_TRANSFER, sepaTransfer(reference()), { "idempotency-key": randomUUID() });
    expect(warm.status, warm.text).toBe(201);
  }
}, 180_000);

afterEach(() => pgProxy?.restore());

afterAll(async () => {
  await direct?.end().catch(() => {});
  await pgProxy?.close();
  await fixture?.close();
});

type Res = Awaited<ReturnType<ReturnType<typeof api>>>;

const reference = () => `SYS-CLAIM-${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
const transfers = async (ref: string) =>
  (await direct.query(`SELECT status FROM "BankTransfer" WHERE reference = $1`, [ref])).rows.map((r) => r.status as string);
const claimOf = async (key: string) =>
  (await direct.query(`SELECT state, "lockedUntil" FROM "IdempotencyRecord" WHERE key = $1`, [key])).rows as Array<{
    state: string;
    lockedUntil: Date;
  }>;

/** Sends `request` every 100 ms while it answers 409 IDEMPOTENCY_IN_PROGRESS or 503 (the instance reconnecting). */
async function retryUntilSettled(request: () => Promise<Res>): Promise<{ final: Res; waited: Res[] }> {
  const waited: Res[] = [];
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const res = await request();
    const inProgress = res.status === 409 && res.json?.code === "IDEMPOTENCY_IN_PROGRESS";
    if (!inProgress && res.status !== 503) return { final: res, waited };
    waited.push(res);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`still ${waited.at(-1)?.status} ${waited.at(-1)?.json?.code} after 10 s`);
}

/** A bank transfer whose first commit lands while its answer is cut: 503, the intent and the claim committed. */
async function cutAtFirstCommit(call: ReturnType<typeof api>, ref: string, key: string): Promise<void> {
  // The first statement to carry the reference is the first transaction's closing statement (the transfer's insert
  // with the key's in-progress claim); it runs without BEGIN, so it commits on its own as it executes.
  const striking = pgProxy.faultWhen(ref, "cut-answer");
  const res = await call("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key });
  expect(await striking).toContain(key);
  expect(pgProxy.isCut, "the proxy never saw the statement to cut at").toBe(true);
  expect(res.status, res.text).toBe(503);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  // The commit landed: the intent without its provider call, and a claim whose lease outlasts the 2 s by far.
  expect(await transfers(ref)).toEqual(["pending"]);
  const [claim] = await claimOf(key);
  if (!claim) throw new Error("no claim stands");
  expect(claim.state).toBe("in_progress");
  expect(claim.lockedUntil.getTime() - Date.now()).toBeGreaterThan(LEASE_SECONDS * 1000 - 10_000);
}

async function expectExecutedOnce(call: ReturnType<typeof api>, ref: string, key: string, final: Res): Promise<void> {
  expect(final.status, final.text).toBe(201);
  expect(final.headers.get("idempotent-replayed")).toBeNull();
  // Exactly one transfer: the stranded intent went with its claim, the retry's own is the one that exists; no provider
  // intent is left open for the reconciler (the stranded one was closed with its transfer, the retry's with its result).
  expect(await transfers(ref)).toHaveLength(1);
  expect((await direct.query(`SELECT id FROM "ProviderIntent"`)).rows).toEqual([]);
  expect(final.json.reference).toBe(ref);
  expect(await claimOf(key)).toEqual([expect.objectContaining({ state: "completed" })]);
  const replay = await call("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key });
  expect(replay.text).toBe(final.text);
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  expect(await transfers(ref)).toHaveLength(1);
}

describe("a connection cut at the first commit of a bank transfer", () => {
  it("the retry on another instance executes within 2 s of healing; exactly one transfer exists", async () => {
    const ref = reference();
    const key = `claim-other-${randomUUID()}`;
    await cutAtFirstCommit(onHolder, ref, key);

    pgProxy.restore();
    const healed = Date.now();
    const { final, waited } = await retryUntilSettled(() => onOther("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key }));
    const took = Date.now() - healed;
    expect(took, `settled after ${took} ms and ${waited.length} answers: ${waited.map((r) => r.status).join(" ")}`).toBeLessThan(
      HEALED_WITHIN_MS,
    );
    for (const res of waited) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectExecutedOnce(onOther, ref, key, final);
  });

  it("the retry on the instance that holds the claim takes it over: no 409, executed within 2 s", async () => {
    const ref = reference();
    const key = `claim-holder-${randomUUID()}`;
    await cutAtFirstCommit(onHolder, ref, key);

    pgProxy.restore();
    const healed = Date.now();
    const { final, waited } = await retryUntilSettled(() => onHolder("POST", BANK_TRANSFER, sepaTransfer(ref), { "idempotency-key": key }));
    expect(Date.now() - healed).toBeLessThan(HEALED_WITHIN_MS);
    expect(waited.filter((r) => r.status === 409)).toEqual([]);
    await expectExecutedOnce(onHolder, ref, key, final);
  });
});
