// Scheduled corridor workflows: POST corridor/workflows/dispatch (scheduler secret) and the in-process scheduler run the
// same dispatcher. Runs go from simulate to completed one step per dispatch; failures, retries with backoff and the
// attempt cap; concurrent dispatchers never advance a step twice; a crash mid-step applies no effect twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { dispatchDueRuns } from "../../server/scheduler/dispatch-due-runs.ts";
import { startScheduler } from "../../server/scheduler/in-process-scheduler.ts";
import { workflowDispatchJob } from "../../server/scheduler/workflow-dispatch-job.ts";
import { corridor, DISPATCH, RUN, SCHEDULER, SIMULATE } from "../helpers/corridors.ts";
import { deciderWithKey } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";

const ORG = "org_disp";
let server: TestServer;
let call: ReturnType<typeof api>;
let anonymous: ReturnType<typeof api>;

interface Dispatched {
  workflowRunId: string;
  step: string;
  status: string;
}

beforeAll(async () => {
  server = await startTestServer();
  call = api(
    server.url,
    (await server.createKey({ organizationId: ORG, scopes: ["payments:write", "wallets:write"], actor: "alice" })).key,
  );
  anonymous = api(server.url);
});
afterAll(() => server?.close());

async function simulate(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await call("POST", SIMULATE, corridor(overrides), idem());
  expect(res.status, res.text).toBe(202);
  return res.json.workflowRunId;
}

async function dispatch(): Promise<Dispatched[]> {
  const res = await anonymous("POST", DISPATCH, undefined, SCHEDULER);
  expect(res.status, res.text).toBe(200);
  expect(res.json.count).toBe(res.json.dispatched.length);
  return res.json.dispatched;
}

/** Dispatches until the run reports no further step; returns this run's entries. */
async function dispatchRun(id: string, max = 10): Promise<Dispatched[]> {
  const mine: Dispatched[] = [];
  for (let i = 0; i < max; i++) {
    const entries = (await dispatch()).filter((d) => d.workflowRunId === id);
    if (entries.length === 0) break;
    mine.push(...entries);
  }
  return mine;
}

const getRun = async (id: string) => (await call("GET", RUN(id))).json;
const makeDue = (id: string) => server.db.prisma.workflowRun.update({ where: { id }, data: { nextRunAt: new Date(Date.now() - 1000) } });

describe("POST corridor/workflows/dispatch", () => {
  it("advances a run one step per call, from simulate to completed, with each step's output", async () => {
    const id = await simulate();
    const mine = await dispatchRun(id);
    expect(mine.map((d) => [d.step, d.status])).toEqual([
      ["fx_quote", "succeeded"],
      ["onramp_bank_debit", "succeeded"],
      ["custody_transfer", "succeeded"],
      ["offramp_payout", "succeeded"],
    ]);
    const run = await getRun(id);
    expect(run.status).toBe("completed");
    expect(run.nextRunAt).toBeNull();
    const [, fx, onramp, custody, offramp] = run.steps;
    expect(fx.output).toMatchObject({
      rate: "1.080000",
      stablecoinAmount: "1080.000000",
      stablecoinMinor: "1080000000",
      payoutAmount: "1080.00",
    });
    expect(onramp.output).toMatchObject({ rail: "sepa", amount: "1000.00", currency: "EUR" });
    expect(onramp.output.providerReference).toMatch(/^E2E-/);
    expect(custody.output).toMatchObject({
      asset: "USDC",
      chain: "base",
      amountMinor: "1080000000",
      destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
    });
    expect(custody.output.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(offramp.output).toMatchObject({ rail: "ach", amount: "1080.00", currency: "USD" });
    for (const step of run.steps) {
      expect(step.attempts).toBe(1);
      expect(step.error).toBeNull();
      expect(step.finishedAt).not.toBeNull();
    }
    // The custody leg's effect exists once, keyed by the step.
    expect(await server.db.prisma.simCustodyTransfer.count({ where: { idempotencyKey: `${id}:custody_transfer` } })).toBe(1);
  });

  it("answers an empty list when nothing is due; plan_only runs are never dispatched", async () => {
    await dispatch(); // drain anything due from earlier tests
    const planned = await simulate({ executionMode: "plan_only" });
    expect(await dispatch()).toEqual([]);
    expect((await getRun(planned)).status).toBe("completed");
  });

  it.each([
    ["amount 13.13", { amount: "13.13" }, "onramp_bank_debit", "INSUFFICIENT_FUNDS", ["custody_transfer", "offramp_payout"]],
    ["amount 14.14", { amount: "14.14" }, "onramp_bank_debit", "ACCOUNT_CLOSED", ["custody_transfer", "offramp_payout"]],
    [
      "the dead destination address",
      { destinationAddress: "0x000000000000000000000000000000000000dEaD" },
      "custody_transfer",
      "PROVIDER_FAILED",
      ["offramp_payout"],
    ],
  ])("%s: the step fails permanently, the run fails and later steps are skipped", async (_name, overrides, failedStep, code, skipped) => {
    const id = await simulate(overrides);
    const mine = await dispatchRun(id);
    expect(mine.at(-1)).toEqual({ workflowRunId: id, step: failedStep, status: "failed" });
    const run = await getRun(id);
    expect(run.status).toBe("failed");
    expect(run.nextRunAt).toBeNull();
    const failed = run.steps.find((s: { name: string }) => s.name === failedStep);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, output: null, error: { code, retryable: false } });
    for (const name of skipped) expect(run.steps.find((s: { name: string }) => s.name === name).status).toBe("skipped");
    // Nothing is dispatched for a terminal run.
    expect((await dispatch()).filter((d) => d.workflowRunId === id)).toEqual([]);
  });

  it("rehearse_with_failures: every step fails once (PROVIDER_TIMEOUT), waits 30 s × 2^(attempts−1), then succeeds", async () => {
    const id = await simulate({ executionMode: "rehearse_with_failures" });
    for (const step of ["fx_quote", "onramp_bank_debit", "custody_transfer", "offramp_payout"]) {
      const before = Date.now();
      expect((await dispatch()).filter((d) => d.workflowRunId === id)).toEqual([{ workflowRunId: id, step, status: "pending" }]);
      const waiting = await getRun(id);
      expect(waiting.status).toBe("running");
      const s = waiting.steps.find((x: { name: string }) => x.name === step);
      expect(s).toMatchObject({ status: "pending", attempts: 1, error: { code: "PROVIDER_TIMEOUT", retryable: true } });
      const delay = new Date(waiting.nextRunAt).getTime() - before;
      expect(delay).toBeGreaterThanOrEqual(29_000);
      expect(delay).toBeLessThanOrEqual(31_000 + 2_000);
      // Not due yet: a dispatch leaves it alone.
      expect((await dispatch()).filter((d) => d.workflowRunId === id)).toEqual([]);
      await makeDue(id);
      expect((await dispatch()).filter((d) => d.workflowRunId === id)).toEqual([{ workflowRunId: id, step, status: "succeeded" }]);
    }
    const run = await getRun(id);
    expect(run.status).toBe("completed");
    expect(run.steps.slice(1).map((s: { attempts: number }) => s.attempts)).toEqual([2, 2, 2, 2]);
  });

  it("a transient provider outage is retried with growing backoff and fails the run after 5 attempts", async () => {
    const id = await simulate();
    await dispatch(); // fx_quote
    await dispatch(); // onramp
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "SimCustodyTransfer" RENAME TO "SimCustodyTransfer_down"`);
    const delays: number[] = [];
    try {
      for (let attempt = 1; attempt <= 5; attempt++) {
        const before = Date.now();
        const entries = (await dispatch()).filter((d) => d.workflowRunId === id);
        expect(entries).toEqual([{ workflowRunId: id, step: "custody_transfer", status: attempt < 5 ? "pending" : "failed" }]);
        const run = await getRun(id);
        const step = run.steps.find((s: { name: string }) => s.name === "custody_transfer");
        expect(step.attempts).toBe(attempt);
        expect(step.error.code).toBe("PROVIDER_UNAVAILABLE");
        if (attempt < 5) {
          delays.push(Math.round((new Date(run.nextRunAt).getTime() - before) / 1000));
          await makeDue(id);
        }
      }
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "SimCustodyTransfer_down" RENAME TO "SimCustodyTransfer"`);
    }
    expect(delays.map((d) => Math.round(d / 30) * 30)).toEqual([30, 60, 120, 240]);
    const run = await getRun(id);
    expect(run.status).toBe("failed");
    expect(run.steps.find((s: { name: string }) => s.name === "custody_transfer").error).toMatchObject({ retryable: false });
    expect(run.steps.find((s: { name: string }) => s.name === "offramp_payout").status).toBe("skipped");
  });

  it("a crash mid-step rolls the step's effect back; the retry applies it exactly once", async () => {
    const id = await simulate();
    await dispatch(); // fx_quote
    await dispatch(); // onramp
    const stepKey = `${id}:custody_transfer`;
    // The outcome of the custody step cannot be recorded: the transaction that also holds its effect fails.
    await server.db.prisma.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION crash_custody_step() RETURNS trigger AS $$
      BEGIN
        IF NEW.name = 'custody_transfer' AND NEW.status = 'succeeded' THEN RAISE EXCEPTION 'simulated crash'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await server.db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER crash_custody_step BEFORE UPDATE ON "WorkflowStep" FOR EACH ROW EXECUTE FUNCTION crash_custody_step()`,
    );
    try {
      const entries = (await dispatch()).filter((d) => d.workflowRunId === id);
      expect(entries).toEqual([{ workflowRunId: id, step: "custody_transfer", status: "pending" }]);
      expect(await server.db.prisma.simCustodyTransfer.count({ where: { idempotencyKey: stepKey } })).toBe(0);
      const step = (await getRun(id)).steps.find((s: { name: string }) => s.name === "custody_transfer");
      expect(step).toMatchObject({ status: "pending", attempts: 1, output: null, error: { code: "DISPATCH_ERROR", retryable: true } });
    } finally {
      await server.db.prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS crash_custody_step ON "WorkflowStep"`);
    }
    await makeDue(id);
    const mine = await dispatchRun(id);
    expect(mine.map((d) => d.step)).toEqual(["custody_transfer", "offramp_payout"]);
    expect((await getRun(id)).status).toBe("completed");
    expect(await server.db.prisma.simCustodyTransfer.count({ where: { idempotencyKey: stepKey } })).toBe(1);
  });

  it("sends from a named custody wallet through its connection; the wallet's balance drops by the stablecoin amount", async () => {
    const alice = call;
    const bob = await deciderWithKey(
      server,
      ORG,
      (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key,
    );
    await connect(server, { organizationId: ORG, category: "custody" });
    const requested = await alice("POST", "/api/v2/agent/custody/wallets", { label: "Corridor float", chain: "base", type: "mpc" }, idem());
    await bob("POST", `/api/v2/agent/approvals/${requested.json.approvalRequestId}/approve`, {});
    const wallet = await alice(
      "POST",
      "/api/v2/agent/custody/wallets",
      { custodyWalletId: requested.json.custodyWalletId, approvalRequestId: requested.json.approvalRequestId },
      idem(),
    );
    expect(wallet.json.status, wallet.text).toBe("active");
    const id = await simulate({ custody: { asset: "USDC", chain: "base", walletId: wallet.json.custodyWalletId }, amount: "100.00" });
    await dispatchRun(id);
    expect((await getRun(id)).status).toBe("completed");
    const balance = await alice("POST", "/api/v2/agent/custody/wallets/balance", { walletId: wallet.json.custodyWalletId, asset: "USDC" });
    expect(balance.json.balances).toEqual([
      { asset: "USDC", amountMinor: String(1_000_000_000_000 - 108_000_000), decimals: 6, amount: "999892.000000" },
    ]);
  });
});

describe("two dispatchers at the same time", () => {
  it("never advance the same step twice (concurrent dispatch calls, plus a second pool on PostgreSQL)", async () => {
    await dispatchRun("none"); // drain
    while ((await dispatch()).length > 0) {}
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => simulate({ amount: `${200 + i}.00` })));
    let second: Database | null = null;
    if (server.testDb.kind === "postgres") second = await openDatabase({ url: server.testDb.url, poolSize: 4 });
    const all: Dispatched[] = [];
    try {
      for (let round = 0; round < 12; round++) {
        const calls: Array<Promise<Dispatched[]>> = Array.from({ length: 4 }, () => dispatch());
        if (second) {
          const db = second.kysely;
          calls.push(...Array.from({ length: 2 }, () => dispatchDueRuns({ db }).then((r) => r.dispatched as Dispatched[])));
        }
        const results = (await Promise.all(calls)).flat();
        all.push(...results);
        if (results.length === 0) break;
      }
    } finally {
      await second?.close();
    }
    const mine = all.filter((d) => ids.includes(d.workflowRunId));
    const pairs = mine.map((d) => `${d.workflowRunId}:${d.step}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(mine.length).toBe(ids.length * 4);
    for (const id of ids) {
      const run = await getRun(id);
      expect(run.status).toBe("completed");
      expect(run.steps.map((s: { attempts: number }) => s.attempts)).toEqual([1, 1, 1, 1, 1]);
      expect(await server.db.prisma.simCustodyTransfer.count({ where: { idempotencyKey: `${id}:custody_transfer` } })).toBe(1);
    }
  });
});

describe("the in-process scheduler", () => {
  it("takes a run from simulate to completed on its own, and stops cleanly", async () => {
    const id = await simulate();
    const scheduler = startScheduler({ jobs: [workflowDispatchJob({ db: server.db.kysely, intervalMs: 25 })] });
    try {
      let status = "queued";
      for (let i = 0; i < 200 && status !== "completed" && status !== "failed"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await getRun(id)).status;
      }
      expect(status).toBe("completed");
    } finally {
      await scheduler.stop();
    }
    const id2 = await simulate();
    await new Promise((r) => setTimeout(r, 150));
    expect((await getRun(id2)).status).toBe("queued");
  });
});

describe("dispatch authentication", () => {
  it.each([
    ["no secret", {}],
    ["a wrong secret", { "x-scheduler-secret": "wrong" }],
  ])("401 UNAUTHORIZED with %s; nothing is dispatched", async (_name, headers) => {
    const id = await simulate();
    const res = await anonymous("POST", DISPATCH, undefined, headers);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("UNAUTHORIZED");
    expect((await getRun(id)).status).toBe("queued");
    await dispatchRun(id);
  });

  it("401 for an API key, even one with every payments scope", async () => {
    const res = await call("POST", DISPATCH);
    expect(res.status).toBe(401);
  });

  it("500 INTERNAL_ERROR when SCHEDULER_SECRET is not configured", async () => {
    const unset = await startTestServer({ env: { SCHEDULER_SECRET: "" } });
    try {
      const res = await api(unset.url)("POST", DISPATCH, undefined, SCHEDULER);
      expect(res.status).toBe(500);
      expect(res.json.code).toBe("INTERNAL_ERROR");
      expect(res.text).not.toMatch(/stack|at .*\.ts/);
    } finally {
      await unset.close();
    }
  });
});
