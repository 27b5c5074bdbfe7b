// Issue 26 on PostgreSQL with real server processes: a process SIGKILLed between the two commits of a bank transfer's
// creation or a card funding (FAULT_INJECT crash-after-intent, crash-before-result) leaves an open intent and an
// in-progress key; after the restart of two instances, their reconcilers (RECONCILE_AFTER_SECONDS=2) settle each within
// 30 s — exactly one event per state, the provider executed it at most once, the key replays the final answer (409 until
// then, never a second execution) — and `npm run check:invariants` exits 0 (for the cards: its checks, in process). Card
// fundings with the magic amounts 777.77 and 778.88 (answered 202) are settled by the same instances.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/open-database.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import {
  BARE_SERVER_ENV,
  createKey,
  createSystemFixture,
  ROOT,
  type ServerProcess,
  type SystemFixture,
  waitFor,
} from "../helpers/server-process.ts";
import { api } from "../helpers/test-server.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";

const ORG = "org_sys_reconcile";
/** Short deadlines: the request's lease on its intent (the key's) ends after 3 s, the intent is due after 2 s. */
const FAST = { RECONCILE_AFTER_SECONDS: "2", IDEMPOTENCY_LOCK_SECONDS: "3" };
const run = promisify(execFile);

let fixture: SystemFixture;
let direct: pg.Client;
/** The two restarted instances, shared by the families' tests (started by the first that needs them). */
let running: ServerProcess[] | undefined;
const restartedInstances = async () => {
  running ??= await Promise.all([fixture.start({ env: FAST }), fixture.start({ env: FAST })]);
  return running;
};

beforeAll(async () => {
  fixture = await createSystemFixture();
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
}, 180_000);

afterAll(async () => {
  await direct?.end().catch(() => {});
  await fixture?.close();
});

const rows = async (sql: string, params: unknown[]) => (await direct.query(sql, params)).rows;

interface Crashed {
  id: string;
  key: string;
  reference: string;
}

/** Sends a transfer to an instance that SIGKILLs itself at `fault`; returns the transfer the first commit recorded. */
async function crashAt(server: ServerProcess, apiKey: string, reference: string): Promise<Crashed> {
  const key = randomUUID();
  await expect(api(server.url, apiKey)("POST", BANK_TRANSFER, sepaTransfer(reference), { "idempotency-key": key })).rejects.toThrow();
  expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
  const [transfer] = await rows(`SELECT id, status FROM "BankTransfer" WHERE reference = $1`, [reference]);
  expect(transfer?.status).toBe("pending");
  expect(await rows(`SELECT id FROM "ProviderIntent" WHERE "resourceId" = $1`, [transfer.id])).toHaveLength(1);
  expect(await rows(`SELECT state FROM "IdempotencyRecord" WHERE key = $1`, [key])).toEqual([{ state: "in_progress" }]);
  return { id: transfer.id, key, reference };
}

describe("a crash between the two commits of createBankTransfer", () => {
  it("crash-after-intent and crash-before-result: the restarted instances settle both within 30 s, once each", async () => {
    const [afterIntent, beforeResult] = await Promise.all([
      fixture.start({ env: { ...FAST, FAULT_INJECT: "crash-after-intent:createBankTransfer" } }),
      fixture.start({ env: { ...FAST, FAULT_INJECT: "crash-before-result:createBankTransfer" } }),
    ]);
    const apiKey = await createKey(afterIntent, { organizationId: ORG, scopes: ["payments:write"] });
    const notCalled = await crashAt(afterIntent, apiKey, "SYS-CRASH-AFTER-INTENT");
    const answered = await crashAt(beforeResult, apiKey, "SYS-CRASH-BEFORE-RESULT");
    // The bank: never asked for the first, executed the second once.
    expect(await rows(`SELECT 1 FROM "SimBankTransfer" WHERE "idempotencyKey" = $1`, [notCalled.id])).toHaveLength(0);
    expect(await rows(`SELECT 1 FROM "SimBankTransfer" WHERE "idempotencyKey" = $1`, [answered.id])).toHaveLength(1);

    const restarted = await restartedInstances();
    const healed = Date.now();
    const retry = (crashed: Crashed, i: number) =>
      api((restarted[i % 2] as ServerProcess).url, apiKey)("POST", BANK_TRANSFER, sepaTransfer(crashed.reference), {
        "idempotency-key": crashed.key,
      });
    // While the intent is open the key is held (past its lease too): 409 — or already the settled answer, when a
    // reconciler was faster than this request — never a second execution.
    expect([409, 201]).toContain((await retry(notCalled, 0)).status);

    const finals = new Map<string, { status: number; json: { status: string; failureReason: { code: string } | null } }>();
    for (const [i, crashed] of [notCalled, answered].entries()) {
      const settled = await waitFor(async () => {
        const res = await retry(crashed, i);
        if (res.status === 409) return false;
        finals.set(crashed.id, res);
        return true;
      }, 30_000);
      expect(settled, `${crashed.reference} settled`).toBe(true);
    }
    expect(Date.now() - healed).toBeLessThan(30_000);

    // Never executed: failed `not_executed`, announced then failed; executed: pending with the bank's id, announced once.
    expect(finals.get(notCalled.id)).toMatchObject({ status: 201, json: { status: "failed", failureReason: { code: "not_executed" } } });
    expect(finals.get(answered.id)).toMatchObject({ status: 201, json: { status: "pending", failureReason: null } });
    const events = async (id: string) =>
      (await rows(`SELECT type FROM "Event" WHERE "resourceId" = $1 ORDER BY type`, [id])).map((r) => r.type);
    expect(await events(notCalled.id)).toEqual(["bank_transfer.created", "bank_transfer.failed"]);
    expect(await events(answered.id)).toEqual(["bank_transfer.created"]);
    const [executed] = await rows(`SELECT "providerTransferId" FROM "BankTransfer" WHERE id = $1`, [answered.id]);
    expect(executed?.providerTransferId).toMatch(/^sim_bt_/);
    expect(await rows(`SELECT 1 FROM "ActivityEvent" WHERE "resourceId" = $1`, [answered.id])).toHaveLength(1);
    expect(await rows(`SELECT 1 FROM "ActivityEvent" WHERE "resourceId" = $1`, [notCalled.id])).toHaveLength(0);
    expect(await rows(`SELECT 1 FROM "SimBankTransfer" WHERE "idempotencyKey" = ANY($1)`, [[notCalled.id, answered.id]])).toHaveLength(1);
    expect(await rows(`SELECT id FROM "ProviderIntent"`, [])).toEqual([]);
    expect(await rows(`SELECT 1 FROM "BankTransfer" WHERE reference = ANY($1)`, [[notCalled.reference, answered.reference]])).toHaveLength(
      2,
    );

    const check = await run("npm", ["run", "-s", "check:invariants"], {
      cwd: ROOT,
      env: { ...BARE_SERVER_ENV, DATABASE_URL: fixture.db.url },
      timeout: 120_000,
    });
    expect(check.stdout).toContain("0 offender(s)");
  });
});

const CARDS = "/api/v2/agent/cards";
const fundPath = (cardId: string) => `${CARDS}/${cardId}/fund`;

/** A card of a new prefunded programme, issued through `server`. */
async function newCard(server: ServerProcess, apiKey: string): Promise<string> {
  const call = api(server.url, apiKey);
  const programme = await call(
    "POST",
    `${CARDS}/programmes`,
    {
      name: `Programme ${randomUUID()}`,
      network: "visa",
      binSponsor: "Sutton Bank",
      jurisdictions: ["US"],
      fundingAsset: "USDC",
      fundingModel: "prefunded",
    },
    { "idempotency-key": randomUUID() },
  );
  expect(programme.status, programme.text).toBe(201);
  const card = await call("POST", `${CARDS}/issue`, { programmeId: programme.json.programmeId }, { "idempotency-key": randomUUID() });
  expect(card.status, card.text).toBe(201);
  return card.json.cardId;
}

describe("a crash between the two commits of fundCard, and its magic amounts", () => {
  it("crash-after-intent, crash-before-result, 777.77 and 778.88: the instances settle all four within 30 s, once each", async () => {
    const [afterIntent, beforeResult] = await Promise.all([
      fixture.start({ env: { ...FAST, FAULT_INJECT: "crash-after-intent:fundCard" } }),
      fixture.start({ env: { ...FAST, FAULT_INJECT: "crash-before-result:fundCard" } }),
    ]);
    const apiKey = await createKey(afterIntent, { organizationId: `${ORG}_cards`, scopes: ["cards:write"] });
    const fundings: Array<{ cardId: string; key: string; amount: string }> = [];
    for (const [server, amount] of [
      [afterIntent, "40.00"],
      [beforeResult, "41.00"],
    ] as const) {
      const cardId = await newCard(server, apiKey);
      const key = randomUUID();
      await expect(
        api(server.url, apiKey)("POST", fundPath(cardId), { amount, asset: "USDC" }, { "idempotency-key": key }),
      ).rejects.toThrow();
      expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
      fundings.push({ cardId, key, amount });
    }
    const restarted = await restartedInstances();
    for (const amount of ["777.77", "778.88"]) {
      const cardId = await newCard(restarted[0] as ServerProcess, apiKey);
      const key = randomUUID();
      const first = await api((restarted[0] as ServerProcess).url, apiKey)(
        "POST",
        fundPath(cardId),
        { amount, asset: "USDC" },
        { "idempotency-key": key },
      );
      expect([first.status, first.json.status]).toEqual([202, "pending"]);
      fundings.push({ cardId, key, amount });
    }
    const healedAt = Date.now();
    const finals = new Map<
      string,
      { status: number; json: { transactionId: string; status: string; failureReason: { code: string } | null } }
    >();
    for (const [i, f] of fundings.entries()) {
      const settled = await waitFor(async () => {
        const res = await api((restarted[i % 2] as ServerProcess).url, apiKey)(
          "POST",
          fundPath(f.cardId),
          { amount: f.amount, asset: "USDC" },
          {
            "idempotency-key": f.key,
          },
        );
        // 409 while a crashed request's intent is open, 202 replayed until the reconciler answered the key.
        if (res.status !== 200) return false;
        finals.set(f.cardId, res);
        return true;
      }, 30_000);
      expect(settled, `funding of ${f.amount} settled`).toBe(true);
    }
    expect(Date.now() - healedAt).toBeLessThan(30_000);

    // Never called, never executed: failed `not_executed`; executed (after the crash, or behind a lost answer): posted.
    const outcome = (f: (typeof fundings)[0]) => [
      finals.get(f.cardId)?.json.status,
      finals.get(f.cardId)?.json.failureReason?.code ?? null,
    ];
    expect(fundings.map(outcome)).toEqual([
      ["failed", "not_executed"],
      ["posted", null],
      ["posted", null],
      ["failed", "not_executed"],
    ]);
    for (const [f, executed] of fundings.map((f, i) => [f, i === 1 || i === 2] as const)) {
      const transactionId = finals.get(f.cardId)?.json.transactionId;
      expect(await rows(`SELECT 1 FROM "SimCardIssuerCall" WHERE "idempotencyKey" = $1`, [transactionId]), f.amount).toHaveLength(
        executed ? 1 : 0,
      );
      expect(await rows(`SELECT 1 FROM "Event" WHERE "resourceId" = $1 AND type = 'card.funded'`, [f.cardId]), f.amount).toHaveLength(
        executed ? 1 : 0,
      );
      expect(await rows(`SELECT 1 FROM "ActivityEvent" WHERE "resourceId" = $1`, [transactionId]), f.amount).toHaveLength(executed ? 1 : 0);
      const [balance] = await rows(
        `SELECT coalesce(sum(CASE WHEN direction = 'credit' THEN "amountMinor" ELSE -"amountMinor" END), 0)::text AS minor FROM "CardLedgerEntry" WHERE account = $1`,
        [`card:${f.cardId}:available`],
      );
      expect(balance?.minor, f.amount).toBe(executed ? `${f.amount.replace(".", "")}0000` : "0");
    }
    expect(await rows(`SELECT id FROM "ProviderIntent"`, [])).toEqual([]);

    // What `npm run check:invariants` runs (the test above runs the script itself), in process: the card ledger sums,
    // each card and funding has its events and metric once — no second tsx start for the serial group.
    const db = await openDatabase({ url: fixture.db.url, poolSize: 1, migrate: false });
    try {
      expect(await checkInvariants(db.kysely, { now: new Date(), graceSeconds: 60, eventRetentionDays: 30 })).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
