// Issue 26 on PostgreSQL with real server processes, for every two-commit provider write family: a process SIGKILLed
// between the two commits of a write (FAULT_INJECT crash-after-intent, crash-before-result) — a bank transfer's
// creation and cancellation, a custody transfer's submission, a custody wallet's activation, a card's funding and
// issuing, a card programme's creation, each at both points — leaves an open intent and an in-progress key; after the
// restart of two instances, their reconcilers (RECONCILE_AFTER_SECONDS=2) settle each write within 30 s — exactly one
// event per state delivered to a real webhook endpoint (a local receiver), the provider executed it at most once
// (exactly once where it executed), the metrics' rows counted once, the key replays the final answer (409 until then,
// never a second execution) — and `npm run check:invariants` exits 0 (for the cards: its checks, in process). The
// magic values (777.77: executed, answer lost; 778.88: never executed; 779.99: a slow answer within the timeout, no
// processing state) are sent to the same two instances, which settle them too. Every server process costs ~6 s of CPU
// to start (~8 s validating responses), so the instances that only take the request that kills them validate nothing
// and start at once, per test, and the two restarted instances serve every test.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/open-database.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { cardholderBody, programmeBody } from "../helpers/cards.ts";
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
import { type Answer, crashWrite, expectDeliveredOnce, send, settle, type Write, write } from "./reconcile-writes.ts";

const ORG = "org_sys_reconcile";
const WALLETS = "/api/v2/agent/custody/wallets";
const TRANSFERS = "/api/v2/agent/custody/transfers";
const CANCEL = `${BANK_TRANSFER}/cancel`;
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
/** The restarted instances hold their own requests' intents longer than the magic 779.99's 3 s slow answer: past its
 * lease a live request loses its intent to the reconciler (409, then the reconciler's answer: correct, but not the
 * plain slow success 779.99 rehearses). A lost answer (777.77, 778.88) lets go of its intent at once regardless. */
const DELIVERING = { ...FAST, IDEMPOTENCY_LOCK_SECONDS: "15", WEBHOOK_POLL_INTERVAL_MS: "50" };
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
/** An instance that SIGKILLs itself at `point` of `operationId`. It only takes the request that kills it, so it
 * validates no responses (~2 s less CPU to start) unless `env` says otherwise. */
const crashingInstance = (point: "crash-after-intent" | "crash-before-result", operationId: string, env: Record<string, string> = {}) =>
  fixture.start({ env: { ...FAST, VALIDATE_RESPONSES: "false", ...env, FAULT_INJECT: `${point}:${operationId}` } });

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
const activities = async (resourceId: string, type?: string) =>
  (await rows(`SELECT 1 FROM "ActivityEvent" WHERE "resourceId" = $1 AND ($2::text IS NULL OR type = $2)`, [resourceId, type ?? null]))
    .length;

/** A real endpoint for every event of the key's organization, at `path` of the receiver: what reaches it is counted,
 * not the Event rows. */
async function webhookEndpoint(server: ServerProcess, apiKey: string, path: string): Promise<void> {
  const endpoint = await api(server.url, apiKey)(
    "POST",
    "/api/v2/agent/webhook-endpoints",
    { url: `${receiver.url}${path}`, enabledEvents: ["*"] },
    { "idempotency-key": randomUUID() },
  );
  expect(endpoint.status, endpoint.text).toBe(201);
}

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

/** 777.77, 778.88 and 779.99 USDC (6 decimals). */
const MAGIC_MINOR = { executed: "777770000", notExecuted: "778880000", slow: "779990000" } as const;

/** Custody's side of the test, prepared through `server` before any instance crashes: an active wallet, and the
 * approved transfers and wallets whose shape-2 calls the crashing instances (`crashes`) and the restarted ones (`magic`:
 * the amounts, the wallets' labels) then receive. */
async function custodyWrites(server: ServerProcess, apiKey: string) {
  const alice = api(server.url, apiKey);
  const bob = await joinMember({ url: server.url, adminToken: ADMIN_TOKEN }, ORG, { role: "approver", secondFactor: true });
  const approve = async (approvalRequestId: string) =>
    expect(
      (await bob.call("POST", `/api/v2/agent/approvals/${approvalRequestId}/approve`, {}, { "coinplane-environment": "sandbox" })).status,
    ).toBe(200);
  const approvedWallet = async (label: string): Promise<Write> => {
    const requested = await alice("POST", WALLETS, { label, chain: "base", type: "mpc" }, { "idempotency-key": randomUUID() });
    expect(requested.status, requested.text).toBe(201);
    await approve(requested.json.approvalRequestId);
    const { custodyWalletId: id, approvalRequestId } = requested.json;
    return write(WALLETS, { custodyWalletId: id, approvalRequestId }, id);
  };
  const active = await approvedWallet("System treasury");
  const activated = await alice("POST", WALLETS, active.body, { "idempotency-key": active.key });
  expect(activated.status, activated.text).toBe(200);
  const approvedTransfer = async (amountMinor = "2500000"): Promise<Write> => {
    const body = { walletId: active.id, destination: CLEAN, asset: "USDC", amountMinor };
    const requested = await alice("POST", TRANSFERS, body, { "idempotency-key": randomUUID() });
    expect(requested.status, requested.text).toBe(201);
    await approve(requested.json.approvalRequestId);
    const { custodyTransferId: id, approvalRequestId } = requested.json;
    return write(TRANSFERS, { custodyTransferId: id, approvalRequestId }, id);
  };
  return {
    crashes: {
      transferAnswered: await approvedTransfer(),
      walletNotCalled: await approvedWallet("System wallet, crash after intent"),
      transferNotCalled: await approvedTransfer(),
      walletAnswered: await approvedWallet("System wallet, crash before result"),
    },
    magic: {
      transferExecuted: await approvedTransfer(MAGIC_MINOR.executed),
      transferNotExecuted: await approvedTransfer(MAGIC_MINOR.notExecuted),
      transferSlow: await approvedTransfer(MAGIC_MINOR.slow),
      walletExecuted: await approvedWallet("777.77 system wallet"),
      walletNotExecuted: await approvedWallet("778.88 system wallet"),
      walletSlow: await approvedWallet("779.99 system wallet"),
    },
  };
}

describe("a crash between the two commits of each provider write", () => {
  it("bank transfer creation and cancellation, custody transfer submission and wallet activation (both fault points each, and the magic values): settled within 30 s, once each", async () => {
    const [
      afterIntent,
      beforeResult,
      transferBeforeResult,
      walletAfterIntent,
      cancelAfterIntent,
      cancelBeforeResult,
      transferAfterIntent,
      walletBeforeResult,
    ] = await Promise.all([
      // The instance the test prepares its data through validates its responses.
      crashingInstance("crash-after-intent", "createBankTransfer", { VALIDATE_RESPONSES: "true" }),
      crashingInstance("crash-before-result", "createBankTransfer"),
      crashingInstance("crash-before-result", "createCustodyTransfer"),
      crashingInstance("crash-after-intent", "createCustodyWallet"),
      crashingInstance("crash-after-intent", "cancelBankTransfer"),
      crashingInstance("crash-before-result", "cancelBankTransfer"),
      crashingInstance("crash-after-intent", "createCustodyTransfer"),
      crashingInstance("crash-before-result", "createCustodyWallet"),
    ]);
    const apiKey = await createKey(afterIntent, {
      organizationId: ORG,
      scopes: ["payments:write", "wallets:write", "webhooks:write"],
    });
    await connectProvider(afterIntent, { organizationId: ORG, category: "custody" });
    await webhookEndpoint(afterIntent, apiKey, "/hooks");
    const { crashes: custody, magic: custodyMagic } = await custodyWrites(afterIntent, apiKey);
    // Transfers to cancel, created as usual (201 pending; through an instance that crashes on cancellations only): two
    // cancelled through a crash, two with the references that rehearse a lost answer (CANCEL-LOST-EXECUTED…: the bank
    // cancelled it; CANCEL-LOST…: it did not).
    const transferToCancel = async (reference: string): Promise<Write> => {
      const created = await api(cancelAfterIntent.url, apiKey)("POST", BANK_TRANSFER, sepaTransfer(reference), {
        "idempotency-key": randomUUID(),
      });
      expect(created.status, created.text).toBe(201);
      return write(CANCEL, { transferId: created.json.id, senderJurisdiction: "DE", receiverJurisdiction: "FR" }, created.json.id);
    };
    const cancels = {
      notCalled: await transferToCancel("SYS-CANCEL-AFTER-INTENT"),
      answered: await transferToCancel("SYS-CANCEL-BEFORE-RESULT"),
      lostExecuted: await transferToCancel("CANCEL-LOST-EXECUTED SYS"),
      lost: await transferToCancel("CANCEL-LOST SYS"),
    };

    const notCalled = await crashAt(afterIntent, apiKey, "SYS-CRASH-AFTER-INTENT");
    const answered = await crashAt(beforeResult, apiKey, "SYS-CRASH-BEFORE-RESULT");
    await crashWrite(rows, transferBeforeResult, apiKey, custody.transferAnswered, "CustodyTransfer", "approved");
    await crashWrite(rows, walletAfterIntent, apiKey, custody.walletNotCalled, "CustodyWallet", "pending_approval");
    await crashWrite(rows, transferAfterIntent, apiKey, custody.transferNotCalled, "CustodyTransfer", "approved");
    await crashWrite(rows, walletBeforeResult, apiKey, custody.walletAnswered, "CustodyWallet", "pending_approval");
    await crashWrite(rows, cancelAfterIntent, apiKey, cancels.notCalled, "BankTransfer", "pending");
    await crashWrite(rows, cancelBeforeResult, apiKey, cancels.answered, "BankTransfer", "pending");
    // The custodian: submitted a transfer and created a wallet once each where it was called, nothing where it was not.
    const submissions = (id: string) => rows(`SELECT id FROM "SimCustodyTransfer" WHERE "idempotencyKey" = $1`, [id]);
    const vaults = (id: string) => rows(`SELECT id, address FROM "SimCustodyWallet" WHERE "idempotencyKey" = $1`, [id]);
    expect(await submissions(custody.transferAnswered.id)).toHaveLength(1);
    expect(await vaults(custody.walletNotCalled.id)).toHaveLength(0);
    expect(await submissions(custody.transferNotCalled.id)).toHaveLength(0);
    expect(await vaults(custody.walletAnswered.id)).toHaveLength(1);
    // The bank: never asked for the first, executed the second once; cancelled under `<id>:cancel` likewise.
    expect(await rows(`SELECT 1 FROM "SimBankTransfer" WHERE "idempotencyKey" = $1`, [notCalled.id])).toHaveLength(0);
    expect(await rows(`SELECT 1 FROM "SimBankTransfer" WHERE "idempotencyKey" = $1`, [answered.id])).toHaveLength(1);
    const cancellations = async (transferId: string) =>
      (await rows(`SELECT 1 FROM "SimBankTransfer" WHERE "idempotencyKey" = $1`, [`${transferId}:cancel`])).length;
    expect([await cancellations(cancels.notCalled.id), await cancellations(cancels.answered.id)]).toEqual([0, 1]);

    const restarted = await restartedInstances();
    const healed = Date.now();
    const retry = (crashed: Crashed, i: number) =>
      api((restarted[i % 2] as ServerProcess).url, apiKey)("POST", BANK_TRANSFER, sepaTransfer(crashed.reference), {
        "idempotency-key": crashed.key,
      });
    // While the intent is open the key is held (past its lease too): 409 — or already the settled answer, when a
    // reconciler was faster than this request — never a second execution.
    expect([409, 201]).toContain((await retry(notCalled, 0)).status);

    // The magic values, sent to the restarted instances at once: 777.77 and 778.88 answered 202 (the unknown outcome
    // as a state), 779.99 answered after 3 s as usual, with no processing state.
    const bankMagic = {
      executed: write(BANK_TRANSFER, sepaTransfer("SYS-777", "777.77")),
      notExecuted: write(BANK_TRANSFER, sepaTransfer("SYS-778", "778.88")),
      slow: write(BANK_TRANSFER, sepaTransfer("SYS-779", "779.99")),
    };
    const magic = [...Object.values(bankMagic), ...Object.values(custodyMagic), cancels.lostExecuted, cancels.lost];
    const firsts = await Promise.all(magic.map((w, i) => send(restarted[i % 2] as ServerProcess, apiKey, w)));
    for (const w of Object.values(bankMagic)) w.id = firsts[magic.indexOf(w)]?.json.id;
    expect(firsts.map((res) => [res.status, res.json.status])).toEqual([
      [202, "processing"],
      [202, "processing"],
      [201, "pending"],
      [202, "submitted"],
      [202, "submitted"],
      [200, "submitted"],
      [202, "processing"],
      [202, "processing"],
      [200, "active"],
      [202, "pending"],
      [202, "pending"],
    ]);
    // A slow answer is no unknown outcome: nothing left for the reconciler.
    const slow = [bankMagic.slow, custodyMagic.transferSlow, custodyMagic.walletSlow];
    expect(await rows(`SELECT id FROM "ProviderIntent" WHERE "resourceId" = ANY($1)`, [slow.map((w) => w.id)])).toEqual([]);

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
    for (const [i, w] of Object.values(custody).entries()) {
      const call = api((restarted[i % 2] as ServerProcess).url, apiKey);
      const settled = await waitFor(async () => {
        const res = await call("POST", w.path, w.body, { "idempotency-key": w.key });
        if (res.status === 409) return false;
        custodyFinals.set(w.id, res);
        return true;
      }, 30_000);
      expect(settled, `${w.id} settled`).toBe(true);
    }
    const others = await settle(restarted, apiKey, [...Object.values(cancels), ...magic], 30_000 - (Date.now() - healed));
    const final = (w: Write) => others.get(w) as Answer;
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

    // The bank's magic amounts: executed behind a lost answer → `processing` with the bank's id, counted once; never
    // executed → failed `not_executed`, never counted; slow → `pending` as usual. Each executed at most once.
    const bankExecutions = async (id: string) => (await rows(`SELECT 1 FROM "SimBankTransfer" WHERE "idempotencyKey" = $1`, [id])).length;
    expect(final(bankMagic.executed)).toMatchObject({ status: 201, json: { status: "processing", failureReason: null } });
    const [magicExecuted] = await rows(`SELECT "providerTransferId" FROM "BankTransfer" WHERE id = $1`, [bankMagic.executed.id]);
    expect(magicExecuted?.providerTransferId).toMatch(/^sim_bt_/);
    expect(final(bankMagic.notExecuted)).toMatchObject({
      status: 201,
      json: { status: "failed", failureReason: { code: "not_executed" } },
    });
    expect(final(bankMagic.slow)).toMatchObject({ status: 201, json: { status: "pending", failureReason: null } });
    for (const [w, once] of [
      [bankMagic.executed, 1],
      [bankMagic.notExecuted, 0],
      [bankMagic.slow, 1],
    ] as const) {
      expect([await bankExecutions(w.id), await activities(w.id)], w.id).toEqual([once, once]);
    }

    // Cancellations: the bank cancelled (after the crash, or behind a lost answer) → `cancelled` once, the key 200; it
    // did not → the transfer unchanged, the key 502. A transfer counted once in the metrics whatever became of it.
    for (const w of [cancels.answered, cancels.lostExecuted]) {
      expect([final(w).status, final(w).json.status], w.id).toEqual([200, "cancelled"]);
    }
    for (const w of [cancels.notCalled, cancels.lost]) {
      expect([final(w).status, final(w).json.code], w.id).toEqual([502, "PROVIDER_EXECUTION_FAILED"]);
      expect(final(w).json.detail).toContain("did not cancel the transfer");
      expect(await rows(`SELECT status FROM "BankTransfer" WHERE id = $1`, [w.id])).toEqual([{ status: "pending" }]);
    }
    for (const [w, once] of [
      [cancels.notCalled, 0],
      [cancels.answered, 1],
      [cancels.lostExecuted, 1],
      [cancels.lost, 0],
    ] as const) {
      expect([await cancellations(w.id), await activities(w.id)], w.id).toEqual([once, 1]);
    }

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
    // Never submitted → failed `not_executed`; created → active with the vault's id and address, once.
    expect(custodyFinals.get(custody.transferNotCalled.id)).toMatchObject({
      status: 200,
      json: { status: "failed", transferId: null, failureReason: { code: "not_executed" } },
    });
    const [vault] = await vaults(custody.walletAnswered.id);
    expect(custodyFinals.get(custody.walletAnswered.id)).toMatchObject({
      status: 200,
      json: { status: "active", providerWalletId: vault?.id, address: vault?.address, failureReason: null },
    });
    expect(await submissions(custody.transferNotCalled.id)).toHaveLength(0);
    expect(await vaults(custody.walletAnswered.id)).toHaveLength(1);
    // Custody's magic values: executed behind a lost answer → submitted / active; never executed → failed; slow → as
    // usual. Each executed at most once.
    const [magicSubmission] = await submissions(custodyMagic.transferExecuted.id);
    expect(final(custodyMagic.transferExecuted)).toMatchObject({
      status: 200,
      json: { status: "submitted", transferId: magicSubmission?.id },
    });
    expect(final(custodyMagic.transferNotExecuted)).toMatchObject({
      status: 200,
      json: { status: "failed", transferId: null, failureReason: { code: "not_executed" } },
    });
    expect(final(custodyMagic.transferSlow)).toMatchObject({ status: 200, json: { status: "submitted" } });
    const [magicVault] = await vaults(custodyMagic.walletExecuted.id);
    expect(final(custodyMagic.walletExecuted)).toMatchObject({ status: 200, json: { status: "active", providerWalletId: magicVault?.id } });
    expect(final(custodyMagic.walletNotExecuted)).toMatchObject({
      status: 200,
      json: { status: "failed", address: null, failureReason: { code: "not_executed" } },
    });
    expect(final(custodyMagic.walletSlow)).toMatchObject({ status: 200, json: { status: "active" } });
    // Each executed at most once. The metrics' rows: each transfer counted once in custody.transfers (at its request,
    // whatever its outcome), an activation only when it happened.
    for (const [w, once, counted] of [
      [custody.transferAnswered, 1, 1],
      [custody.transferNotCalled, 0, 1],
      [custodyMagic.transferExecuted, 1, 1],
      [custodyMagic.transferNotExecuted, 0, 1],
      [custodyMagic.transferSlow, 1, 1],
      [custody.walletNotCalled, 0, 0],
      [custody.walletAnswered, 1, 1],
      [custodyMagic.walletExecuted, 1, 1],
      [custodyMagic.walletNotExecuted, 0, 0],
      [custodyMagic.walletSlow, 1, 1],
    ] as const) {
      const transfer = w.path === TRANSFERS;
      const executions = (await (transfer ? submissions(w.id) : vaults(w.id))).length;
      const activity = await activities(w.id, transfer ? "custody_transfer.created" : "custody_wallet.created");
      expect([executions, activity], w.id).toEqual([once, counted]);
    }
    expect(await rows(`SELECT id FROM "ProviderIntent"`, [])).toEqual([]);

    // What reached the webhook endpoint: exactly one delivery per state entered, per resource.
    const transferEvents = (...more: string[]) => ["custody_transfer.approved", "custody_transfer.created", ...more].sort();
    await expectDeliveredOnce(receiver, "/hooks", {
      [notCalled.id]: ["bank_transfer.created", "bank_transfer.failed"],
      [answered.id]: ["bank_transfer.created"],
      [bankMagic.executed.id]: ["bank_transfer.created", "bank_transfer.submitted"],
      [bankMagic.notExecuted.id]: ["bank_transfer.created", "bank_transfer.failed", "bank_transfer.submitted"],
      [bankMagic.slow.id]: ["bank_transfer.created"],
      [cancels.notCalled.id]: ["bank_transfer.created"],
      [cancels.answered.id]: ["bank_transfer.cancelled", "bank_transfer.created"],
      [cancels.lostExecuted.id]: ["bank_transfer.cancelled", "bank_transfer.created"],
      [cancels.lost.id]: ["bank_transfer.created"],
      [custody.transferAnswered.id]: transferEvents("custody_transfer.submitted"),
      [custody.transferNotCalled.id]: transferEvents("custody_transfer.failed"),
      [custodyMagic.transferExecuted.id]: transferEvents("custody_transfer.submitted"),
      [custodyMagic.transferNotExecuted.id]: transferEvents("custody_transfer.submitted", "custody_transfer.failed"),
      [custodyMagic.transferSlow.id]: transferEvents("custody_transfer.submitted"),
      [custody.walletNotCalled.id]: ["custody_wallet.created", "custody_wallet.failed"],
      [custody.walletAnswered.id]: ["custody_wallet.activated", "custody_wallet.created"],
      [custodyMagic.walletExecuted.id]: ["custody_wallet.activated", "custody_wallet.created", "custody_wallet.processing"],
      [custodyMagic.walletNotExecuted.id]: ["custody_wallet.created", "custody_wallet.failed", "custody_wallet.processing"],
      [custodyMagic.walletSlow.id]: ["custody_wallet.activated", "custody_wallet.created"],
    });
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
const CARD_ORG = `${ORG}_cards`;
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

/** What the card tests read back: the issuer's executions of a write (by its idempotency key: the card, funding or
 * programme id), the events of a resource of one type. */
const issuerCalls = async (id: string) => (await rows(`SELECT 1 FROM "SimCardIssuerCall" WHERE "idempotencyKey" = $1`, [id])).length;
const eventsOfType = async (resourceId: string, type: string) =>
  (await rows(`SELECT 1 FROM "Event" WHERE "resourceId" = $1 AND type = $2`, [resourceId, type])).length;

/** A card ledger account's balance, in minor units. */
const balanceMinor = async (account: string) =>
  (
    await rows(
      `SELECT coalesce(sum(CASE WHEN direction = 'credit' THEN "amountMinor" ELSE -"amountMinor" END), 0)::text AS minor FROM "CardLedgerEntry" WHERE account = $1`,
      [account],
    )
  )[0]?.minor;

/** What `npm run check:invariants` runs (the first test runs the script itself), in process: the card ledger sums, each
 * card, programme and funding has its events and metric once — no second tsx start for the serial group. */
async function expectInvariantsHold(): Promise<void> {
  const db = await openDatabase({ url: fixture.db.url, poolSize: 1, migrate: false });
  try {
    expect(await checkInvariants(db.kysely, { now: new Date(), graceSeconds: 60, eventRetentionDays: 30 })).toEqual([]);
  } finally {
    await db.close();
  }
}

/** The event (and activity) a card's status or limits change records when it stands. */
const changeEvent = (w: Write) =>
  w.path.endsWith("/limits") ? "card.limits_updated" : w.path.endsWith("/freeze") ? "card.frozen" : "card.deactivated";

describe("a crash between the two commits of each card write, and the cards' magic values", () => {
  /** The crashing instances of the card tests, started at once, by `<point>:<operationId>`: every card write family at
   * both fault points — the status changes (family card.status) at one each of freeze and deactivate. */
  let crashers: Map<string, ServerProcess>;
  const crasher = (point: string, operationId: string) => crashers.get(`${point}:${operationId}`) as ServerProcess;
  let apiKey: string;

  beforeAll(async () => {
    const points = ["crash-after-intent", "crash-before-result"] as const;
    const faults = [
      ...["fundCard", "issueCard", "createCardProgramme", "updateCardLimits"].flatMap((operationId) =>
        points.map((point) => [point, operationId] as const),
      ),
      ["crash-after-intent", "freezeCard"] as const,
      ["crash-before-result", "deactivateCard"] as const,
    ];
    const [started, restarted] = await Promise.all([
      Promise.all(faults.map(([point, operationId]) => crashingInstance(point, operationId))),
      restartedInstances(),
    ]);
    crashers = new Map(faults.map(([point, operationId], i) => [`${point}:${operationId}`, started[i] as ServerProcess]));
    apiKey = await createKey(restarted[0] as ServerProcess, { organizationId: CARD_ORG, scopes: ["cards:write", "webhooks:write"] });
    await webhookEndpoint(restarted[0] as ServerProcess, apiKey, "/card-hooks");
  }, 180_000);

  it("fundCard: crash-after-intent, crash-before-result, 777.77 and 778.88: the instances settle all four within 30 s, once each", async () => {
    const restarted = await restartedInstances();
    const fundings: Array<{ cardId: string; key: string; amount: string }> = [];
    for (const [server, amount] of [
      [crasher("crash-after-intent", "fundCard"), "40.00"],
      [crasher("crash-before-result", "fundCard"), "41.00"],
    ] as const) {
      const cardId = await newCard(restarted[0] as ServerProcess, apiKey);
      const key = randomUUID();
      await expect(
        api(server.url, apiKey)("POST", fundPath(cardId), { amount, asset: "USDC" }, { "idempotency-key": key }),
      ).rejects.toThrow();
      expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
      fundings.push({ cardId, key, amount });
    }
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
      expect(await balanceMinor(`card:${f.cardId}:available`), f.amount).toBe(executed ? `${f.amount.replace(".", "")}0000` : "0");
    }
    expect(await rows(`SELECT id FROM "ProviderIntent"`, [])).toEqual([]);
    // What reached the webhook endpoint: each card's issuing once, its funding once where it happened.
    await expectDeliveredOnce(
      receiver,
      "/card-hooks",
      Object.fromEntries(fundings.map((f, i) => [f.cardId, i === 1 || i === 2 ? ["card.funded", "card.issued"] : ["card.issued"]])),
    );
    await expectInvariantsHold();
  });

  it("issueCard and createCardProgramme (both fault points), the card's limits 777.77 and 778.88, and 779.99 of each card write: settled within 30 s, once each", async () => {
    const restarted = await restartedInstances();
    const [setup] = restarted as [ServerProcess];
    const programme = await send(setup, apiKey, write(`${CARDS}/programmes`, programmeBody()));
    expect(programme.status, programme.text).toBe(201);
    const { programmeId } = programme.json;
    const issuing = (perAuthorization: string) =>
      write(`${CARDS}/issue`, { programmeId, cardholder: cardholderBody(), limits: { perAuthorization } });
    const cards = {
      notCalled: issuing("100.00"),
      answered: issuing("100.00"),
      executed: issuing("777.77"),
      notExecuted: issuing("778.88"),
      slow: issuing("779.99"),
    };
    const programmes = {
      notCalled: write(`${CARDS}/programmes`, programmeBody()),
      answered: write(`${CARDS}/programmes`, programmeBody()),
    };
    await crashWrite(rows, crasher("crash-after-intent", "issueCard"), apiKey, cards.notCalled, "Card", "pending");
    await crashWrite(rows, crasher("crash-before-result", "issueCard"), apiKey, cards.answered, "Card", "pending");
    await crashWrite(rows, crasher("crash-after-intent", "createCardProgramme"), apiKey, programmes.notCalled, "CardProgramme", "pending");
    await crashWrite(rows, crasher("crash-before-result", "createCardProgramme"), apiKey, programmes.answered, "CardProgramme", "pending");
    expect([await issuerCalls(cards.notCalled.id), await issuerCalls(cards.answered.id)]).toEqual([0, 1]);
    expect([await issuerCalls(programmes.notCalled.id), await issuerCalls(programmes.answered.id)]).toEqual([0, 1]);

    const fundedCard = await newCard(setup, apiKey);
    const slowFunding = write(fundPath(fundedCard), { amount: "779.99", asset: "USDC" }, fundedCard);
    const healedAt = Date.now();
    // The magic values at once: 777.77 and 778.88 answered 202 `pending`; 779.99 (issuing, funding) after 3 s as usual.
    const magic = [cards.executed, cards.notExecuted, cards.slow, slowFunding];
    const firsts = await Promise.all(magic.map((w, i) => send(restarted[i % 2] as ServerProcess, apiKey, w)));
    expect(firsts.map((res) => [res.status, res.json.status])).toEqual([
      [202, "pending"],
      [202, "pending"],
      [201, "active"],
      [200, "posted"],
    ]);
    for (const w of [cards.executed, cards.notExecuted, cards.slow]) w.id = firsts[magic.indexOf(w)]?.json.cardId;
    const slowTransaction = firsts[3]?.json.transactionId as string;
    expect(await rows(`SELECT id FROM "ProviderIntent" WHERE "resourceId" = ANY($1)`, [[cards.slow.id, slowTransaction]])).toEqual([]);

    const finals = await settle(restarted, apiKey, [...Object.values(cards), ...Object.values(programmes), slowFunding]);
    const final = (w: Write) => finals.get(w) as Answer;
    expect(Date.now() - healedAt).toBeLessThan(30_000);

    // Cards: issued (after the crash, behind a lost answer, or slowly) → active with the issuer's details, `card.issued`
    // and its metric once; never issued → failed `not_executed`, no event, never counted. Issued at most once each.
    for (const [w, issued] of [
      [cards.notCalled, false],
      [cards.answered, true],
      [cards.executed, true],
      [cards.notExecuted, false],
      [cards.slow, true],
    ] as const) {
      expect([final(w).status, final(w).json.cardId, final(w).json.status], w.id).toEqual([201, w.id, issued ? "active" : "failed"]);
      if (issued) expect(final(w).json.last4, w.id).toMatch(/^[0-9]{4}$/);
      else expect(final(w).json.statusReason, w.id).toMatch(/^not_executed: /);
      const once = issued ? 1 : 0;
      expect([await issuerCalls(w.id), await eventsOfType(w.id, "card.issued"), await activities(w.id)], w.id).toEqual([once, once, once]);
    }
    // Programmes: created at the issuer → active with its reference, its event and metric once; never created → failed
    // with its test funds written back, no event.
    expect([final(programmes.answered).status, final(programmes.answered).json.status]).toEqual([201, "active"]);
    expect([final(programmes.notCalled).status, final(programmes.notCalled).json.status]).toEqual([201, "failed"]);
    const programmeRow = async (id: string) =>
      (await rows(`SELECT "providerReference", "failureReason" FROM "CardProgramme" WHERE id = $1`, [id]))[0];
    expect((await programmeRow(programmes.answered.id))?.providerReference).toMatch(/^sim_prg_/);
    expect((await programmeRow(programmes.notCalled.id))?.failureReason).toMatch(/^not_executed: /);
    expect(await balanceMinor(`programme:${programmes.notCalled.id}:funding`)).toBe("0");
    for (const [w, created] of [
      [programmes.notCalled, 0],
      [programmes.answered, 1],
    ] as const) {
      expect([await issuerCalls(w.id), await eventsOfType(w.id, "card_programme.created"), await activities(w.id)], w.id).toEqual([
        created,
        created,
        created,
      ]);
    }
    // The slow funding: posted once, as usual; the key replays it.
    expect([final(slowFunding).status, final(slowFunding).json.transactionId]).toEqual([200, slowTransaction]);
    expect([await issuerCalls(slowTransaction), await activities(slowTransaction), await eventsOfType(fundedCard, "card.funded")]).toEqual([
      1, 1, 1,
    ]);
    expect(await rows(`SELECT id FROM "ProviderIntent"`, [])).toEqual([]);

    await expectDeliveredOnce(receiver, "/card-hooks", {
      ...Object.fromEntries(Object.values(cards).map((w) => [w.id, final(w).json.status === "active" ? ["card.issued"] : []])),
      [programmeId]: ["card_programme.created"],
      [programmes.notCalled.id]: [],
      [programmes.answered.id]: ["card_programme.created"],
      [fundedCard]: ["card.funded", "card.issued"],
    });
    await expectInvariantsHold();
  });
  it("a card's status and limits changes (both fault points of each), reason 777.77, limit 778.88 and 779.99: settled within 30 s, once each", async () => {
    const restarted = await restartedInstances();
    const [setup] = restarted as [ServerProcess];
    const programme = await send(setup, apiKey, write(`${CARDS}/programmes`, programmeBody()));
    expect(programme.status, programme.text).toBe(201);
    /** A change of a new active card (no limits). */
    const change = async (suffix: string, body: Record<string, unknown>) => {
      const card = await send(setup, apiKey, write(`${CARDS}/issue`, { programmeId: programme.json.programmeId }));
      expect(card.status, card.text).toBe(201);
      return write(`${CARDS}/${card.json.cardId}${suffix}`, body, card.json.cardId);
    };
    const limits = (perAuthorization: string) => ({ limits: { perAuthorization } });
    // `applied`: whether the issuer ends up having applied it (the change stands, 200), else the card is put back (502).
    const crashed = [
      { w: await change("/freeze", { reason: "lost" }), at: ["crash-after-intent", "freezeCard"], requested: "frozen", applied: false },
      {
        w: await change("/deactivate", { reason: "closed" }),
        at: ["crash-before-result", "deactivateCard"],
        requested: "deactivated",
        applied: true,
      },
      { w: await change("/limits", limits("50.00")), at: ["crash-after-intent", "updateCardLimits"], requested: "active", applied: false },
      { w: await change("/limits", limits("60.00")), at: ["crash-before-result", "updateCardLimits"], requested: "active", applied: true },
    ] as const;
    for (const { w, at, requested } of crashed) await crashWrite(rows, crasher(at[0], at[1]), apiKey, w, "Card", requested);
    const magic = [
      { w: await change("/freeze", { reason: "777.77 rehearsal" }), applied: true },
      { w: await change("/limits", limits("778.88")), applied: false },
      { w: await change("/limits", limits("779.99")), applied: true },
    ];
    const healedAt = Date.now();
    // The magic values at once: 777.77 and 778.88 answered 202 with the change pending; 779.99 after 3 s as usual.
    const firsts = await Promise.all(magic.map(({ w }, i) => send(restarted[i % 2] as ServerProcess, apiKey, w)));
    expect(firsts.map((res) => [res.status, res.json.pendingUpdate?.type ?? null])).toEqual([
      [202, "status"],
      [202, "limits"],
      [200, null],
    ]);

    const all = [...crashed, ...magic];
    const finals = await settle(
      restarted,
      apiKey,
      all.map(({ w }) => w),
    );
    expect(Date.now() - healedAt).toBeLessThan(30_000);
    for (const { w, applied } of all) {
      const event = changeEvent(w);
      const final = finals.get(w) as Answer;
      expect([final.status, final.json.code ?? null], w.path).toEqual(applied ? [200, null] : [502, "PROVIDER_EXECUTION_FAILED"]);
      // Applied: the requested values stand; put back: the card as it was (active, no limits). Nothing pending either way.
      const [card] = await rows(`SELECT status, limits, "pendingUpdate" FROM "Card" WHERE id = $1`, [w.id]);
      const requested = w.path.endsWith("/limits")
        ? { status: "active", limits: w.body.limits }
        : { status: w.path.endsWith("/freeze") ? "frozen" : "deactivated", limits: {} };
      expect(card, w.path).toEqual(applied ? { ...requested, pendingUpdate: null } : { status: "active", limits: {}, pendingUpdate: null });
      // The issuer applied it once when applied, never otherwise; its event and its metric's row the same.
      const calls = await rows(`SELECT 1 FROM "SimCardIssuerCall" WHERE "idempotencyKey" LIKE $1 AND operation LIKE 'set_card_%'`, [
        `${w.id}:%`,
      ]);
      const once = applied ? 1 : 0;
      expect([calls.length, await eventsOfType(w.id, event), await activities(w.id, event)], w.path).toEqual([once, once, once]);
    }
    expect(await rows(`SELECT id FROM "ProviderIntent"`, [])).toEqual([]);

    await expectDeliveredOnce(
      receiver,
      "/card-hooks",
      Object.fromEntries(
        all.map(({ w, applied }) => {
          const event = w.path.endsWith("/limits")
            ? "card.limits_updated"
            : w.path.endsWith("/freeze")
              ? "card.frozen"
              : "card.deactivated";
          return [w.id, (applied ? [event, "card.issued"] : ["card.issued"]).sort()];
        }),
      ),
    );
    await expectInvariantsHold();
  });
});
