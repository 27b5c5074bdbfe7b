// Issue 26 on PostgreSQL with real server processes: a process SIGKILLed between the two commits of a provider write
// (FAULT_INJECT crash-after-intent, crash-before-result) — a bank transfer's creation, a custody transfer's submission,
// a custody wallet's activation, a card funding — leaves an open intent and an in-progress key; after the restart of
// two instances, their reconcilers (RECONCILE_AFTER_SECONDS=2) settle each write within 30 s — exactly one event per
// state (for bank and custody: delivered once to a real webhook endpoint, a local receiver), the provider executed it at
// most once, the metrics' rows counted once, the key replays the final answer (409 until then, never a second
// execution) — and `npm run check:invariants` exits 0 (for the cards: its checks, in process). Card fundings with the
// magic amounts 777.77 and 778.88 (answered 202) are settled by the same instances. Every server process costs ~10 s of
// CPU to start, so the custody families take one fault point each (the custody transfer crash-before-result: the
// custodian submitted it; the wallet crash-after-intent: nothing was created; test/http/custody-*-reconcile.test.ts
// cover the other paths), and the bank and custody crashes share one restart.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/open-database.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { joinMember } from "../helpers/members.ts";
import {
  ADMIN_TOKEN,
  BARE_SERVER_ENV,
  connectProvider,
  createKey,
  createSystemFixture,
  ROOT,
  type ServerProcess,
  type SystemFixture,
  waitFor,
} from "../helpers/server-process.ts";
import { api } from "../helpers/test-server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";

const ORG = "org_sys_reconcile";
const WALLETS = "/api/v2/agent/custody/wallets";
const TRANSFERS = "/api/v2/agent/custody/transfers";
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";
/** Short deadlines: the request's lease on its intent (the key's) ends after 3 s, the intent is due after 2 s. No
 * webhook worker on the instances that crash (a delivery cut by the SIGKILL would be sent again: at least once, by
 * design); the restarted ones deliver every 50 ms. */
const FAST = {
  RECONCILE_AFTER_SECONDS: "2",
  IDEMPOTENCY_LOCK_SECONDS: "3",
  WEBHOOK_POLL_INTERVAL_MS: "0",
  // One key seals the endpoint's secret on one instance and opens it on the others.
  WEBHOOK_SECRETS_KEY: BARE_SERVER_ENV.WEBHOOK_SECRETS_KEY as string,
};
const DELIVERING = { ...FAST, WEBHOOK_POLL_INTERVAL_MS: "50" };
const run = promisify(execFile);

let fixture: SystemFixture;
let direct: pg.Client;
let receiver: WebhookReceiver;
/** The two restarted instances (delivering webhooks), shared by the families' tests (started by the first that needs
 * them). */
let running: ServerProcess[] | undefined;
const restartedInstances = async () => {
  running ??= await Promise.all([fixture.start({ env: DELIVERING }), fixture.start({ env: DELIVERING })]);
  return running;
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  fixture = await createSystemFixture();
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
}, 180_000);

afterAll(async () => {
  await direct?.end().catch(() => {});
  await fixture?.close();
  await receiver?.close();
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

/** A custody write (shape 2 of a wallet or a transfer) sent under a fresh key, and its final answer once settled. */
interface CustodyWrite {
  id: string;
  path: string;
  body: Record<string, unknown>;
  key: string;
}

/** Sends `write` to an instance that SIGKILLs itself between its commits; the resource is left as the first commit
 * recorded it (`status`), with its intent open and its key in progress. */
async function crashCustody(server: ServerProcess, apiKey: string, write: CustodyWrite, table: string, status: string): Promise<void> {
  await expect(api(server.url, apiKey)("POST", write.path, write.body, { "idempotency-key": write.key })).rejects.toThrow();
  expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
  expect(await rows(`SELECT status FROM "${table}" WHERE id = $1`, [write.id])).toEqual([{ status }]);
  expect(await rows(`SELECT id FROM "ProviderIntent" WHERE "resourceId" = $1`, [write.id])).toHaveLength(1);
  expect(await rows(`SELECT state FROM "IdempotencyRecord" WHERE key = $1`, [write.key])).toEqual([{ state: "in_progress" }]);
}

/** Custody's side of the test, prepared through `server` before any instance crashes: an active wallet with an approved
 * transfer, and an approved wallet — the shape-2 calls the crashing instances then receive. */
async function custodyWrites(server: ServerProcess, apiKey: string) {
  const alice = api(server.url, apiKey);
  const bob = await joinMember({ url: server.url, adminToken: ADMIN_TOKEN }, ORG, { role: "approver", secondFactor: true });
  const approve = async (approvalRequestId: string) =>
    expect(
      (await bob.call("POST", `/api/v2/agent/approvals/${approvalRequestId}/approve`, {}, { "coinplane-environment": "sandbox" })).status,
    ).toBe(200);
  const approvedWallet = async (label: string): Promise<CustodyWrite> => {
    const requested = await alice("POST", WALLETS, { label, chain: "base", type: "mpc" }, { "idempotency-key": randomUUID() });
    expect(requested.status, requested.text).toBe(201);
    await approve(requested.json.approvalRequestId);
    const { custodyWalletId: id, approvalRequestId } = requested.json;
    return { id, path: WALLETS, body: { custodyWalletId: id, approvalRequestId }, key: randomUUID() };
  };
  const active = await approvedWallet("System treasury");
  const activated = await alice("POST", WALLETS, active.body, { "idempotency-key": active.key });
  expect(activated.status, activated.text).toBe(200);
  const approvedTransfer = async (): Promise<CustodyWrite> => {
    const body = { walletId: active.id, destination: CLEAN, asset: "USDC", amountMinor: "2500000" };
    const requested = await alice("POST", TRANSFERS, body, { "idempotency-key": randomUUID() });
    expect(requested.status, requested.text).toBe(201);
    await approve(requested.json.approvalRequestId);
    const { custodyTransferId: id, approvalRequestId } = requested.json;
    return { id, path: TRANSFERS, body: { custodyTransferId: id, approvalRequestId }, key: randomUUID() };
  };
  return {
    transferAnswered: await approvedTransfer(),
    walletNotCalled: await approvedWallet("System wallet, crash after intent"),
  };
}

describe("a crash between the two commits of each provider write", () => {
  it("bank transfer (both fault points), custody transfer (crash-before-result), custody wallet (crash-after-intent): settled within 30 s, once each", async () => {
    // The instances that only take the request that kills them validate no responses (~2 s less CPU each to start).
    const crashing = (point: string, operationId: string, env: Record<string, string> = { VALIDATE_RESPONSES: "false" }) =>
      fixture.start({ env: { ...FAST, ...env, FAULT_INJECT: `${point}:${operationId}` } });
    const [afterIntent, beforeResult, transferBeforeResult, walletAfterIntent] = await Promise.all([
      crashing("crash-after-intent", "createBankTransfer", {}),
      crashing("crash-before-result", "createBankTransfer"),
      crashing("crash-before-result", "createCustodyTransfer"),
      crashing("crash-after-intent", "createCustodyWallet"),
    ]);
    const apiKey = await createKey(afterIntent, {
      organizationId: ORG,
      scopes: ["payments:write", "wallets:write", "webhooks:write"],
    });
    await connectProvider(afterIntent, { organizationId: ORG, category: "custody" });
    // A real endpoint for every event: what reaches it is counted below, not the Event rows.
    const endpoint = await api(afterIntent.url, apiKey)(
      "POST",
      "/api/v2/agent/webhook-endpoints",
      { url: `${receiver.url}/hooks`, enabledEvents: ["*"] },
      { "idempotency-key": randomUUID() },
    );
    expect(endpoint.status, endpoint.text).toBe(201);
    const custody = await custodyWrites(afterIntent, apiKey);

    const notCalled = await crashAt(afterIntent, apiKey, "SYS-CRASH-AFTER-INTENT");
    const answered = await crashAt(beforeResult, apiKey, "SYS-CRASH-BEFORE-RESULT");
    await crashCustody(transferBeforeResult, apiKey, custody.transferAnswered, "CustodyTransfer", "approved");
    await crashCustody(walletAfterIntent, apiKey, custody.walletNotCalled, "CustodyWallet", "pending_approval");
    // The custodian: submitted the transfer once, never asked to create the wallet.
    const submissions = (id: string) => rows(`SELECT id FROM "SimCustodyTransfer" WHERE "idempotencyKey" = $1`, [id]);
    const vaults = (id: string) => rows(`SELECT id, address FROM "SimCustodyWallet" WHERE "idempotencyKey" = $1`, [id]);
    expect(await submissions(custody.transferAnswered.id)).toHaveLength(1);
    expect(await vaults(custody.walletNotCalled.id)).toHaveLength(0);
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
    const custodyFinals = new Map<string, { status: number; json: Record<string, unknown> }>();
    for (const [i, write] of Object.values(custody).entries()) {
      const call = api((restarted[i % 2] as ServerProcess).url, apiKey);
      const settled = await waitFor(async () => {
        const res = await call("POST", write.path, write.body, { "idempotency-key": write.key });
        if (res.status === 409) return false;
        custodyFinals.set(write.id, res);
        return true;
      }, 30_000);
      expect(settled, `${write.id} settled`).toBe(true);
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

    // Custody: submitted → its transferId recorded, once; never created → failed `not_executed`, the approval used.
    const [submitted] = await submissions(custody.transferAnswered.id);
    expect(custodyFinals.get(custody.transferAnswered.id)).toMatchObject({
      status: 200,
      json: { status: "submitted", transferId: submitted?.id },
    });
    expect(custodyFinals.get(custody.walletNotCalled.id)).toMatchObject({
      status: 200,
      json: { status: "failed", address: null, failureReason: { code: "not_executed" } },
    });
    expect(await submissions(custody.transferAnswered.id)).toHaveLength(1);
    expect(await vaults(custody.walletNotCalled.id)).toHaveLength(0);
    const [approval] = await rows(`SELECT "consumedAt" FROM "ApprovalRequest" WHERE id = $1`, [
      custody.walletNotCalled.body.approvalRequestId,
    ]);
    expect(approval?.consumedAt).not.toBeNull();
    // The metrics' rows: each transfer counted once in custody.transfers, an activation only when it happened.
    const activity = async (id: string, type: string) =>
      (await rows(`SELECT 1 FROM "ActivityEvent" WHERE "resourceId" = $1 AND type = $2`, [id, type])).length;
    expect(await activity(custody.transferAnswered.id, "custody_transfer.created")).toBe(1);
    expect(await activity(custody.walletNotCalled.id, "custody_wallet.created")).toBe(0);
    expect(await rows(`SELECT id FROM "ProviderIntent"`, [])).toEqual([]);

    // What reached the webhook endpoint: exactly one delivery per state entered, per resource.
    const expected: Record<string, string[]> = {
      [notCalled.id]: ["bank_transfer.created", "bank_transfer.failed"],
      [answered.id]: ["bank_transfer.created"],
      [custody.transferAnswered.id]: ["custody_transfer.approved", "custody_transfer.created", "custody_transfer.submitted"],
      [custody.walletNotCalled.id]: ["custody_wallet.created", "custody_wallet.failed"],
    };
    const deliveredTo = () => {
      const seen = new Map<string, string[]>();
      for (const r of receiver.at("/hooks")) {
        const { type, data } = JSON.parse(r.body) as {
          type: string;
          data: { id?: string; custodyTransferId?: string; custodyWalletId?: string };
        };
        const id = data.id ?? data.custodyTransferId ?? data.custodyWalletId ?? "";
        if (id in expected) seen.set(id, [...(seen.get(id) ?? []), type]);
      }
      return seen;
    };
    const total = Object.values(expected).flat().length;
    const delivered = await waitFor(() => [...deliveredTo().values()].flat().length >= total, 20_000);
    expect(delivered, `${[...deliveredTo().values()].flat().length} of ${total} deliveries`).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // a second delivery of an event would land now
    const seen = deliveredTo();
    for (const [id, types] of Object.entries(expected)) expect([...(seen.get(id) ?? [])].sort(), id).toEqual(types);
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
