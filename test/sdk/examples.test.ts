// The runnable examples (examples/*.ts), each run as its own process with tsx against a real test server, exactly as a
// developer runs them against `npm start`: their JSON-line output is checked step by step.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

// biome-ignore lint/suspicious/noExplicitAny: example output is arbitrary JSON
async function example(file: string, organizationId: string): Promise<Record<string, any>> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--conditions=@coinplane/source", path.join("examples", file)], {
    cwd: root,
    env: { ...process.env, COINPLANE_URL: server.url, ADMIN_TOKEN: server.adminToken, COINPLANE_ORG: organizationId },
    timeout: 90_000,
  }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`${file} failed: ${err.message}\n${err.stdout ?? ""}\n${err.stderr ?? ""}`);
  });
  const steps: Record<string, unknown> = {};
  for (const line of stdout.trim().split("\n")) {
    const { step, value } = JSON.parse(line) as { step: string; value: unknown };
    steps[step] = value;
  }
  return steps;
}

describe("examples", () => {
  it("sandbox-wallet-payment.ts: wallet, payment, paginated list, balances, metric", async () => {
    const steps = await example("sandbox-wallet-payment.ts", "org_example_v1");
    expect(steps.wallet).toMatchObject({ chain: "base", label: "Example wallet" });
    expect(steps.payment).toMatchObject({ status: "confirmed", amount: "125.50", stablecoin: "USDC" });
    expect(steps.payments).toEqual([steps.payment.id]);
    expect(steps.walletBalance).toBeDefined();
    expect(steps.metric).toMatchObject({ metricId: "payments.count", source: "live" });
    const payments = await server.db.prisma.payment.count({ where: { organizationId: "org_example_v1" } });
    expect(payments).toBe(1);
  });

  it("custody-approvals.ts: wallet and transfer under four-eyes approval", async () => {
    const steps = await example("custody-approvals.ts", "org_example_custody");
    expect(steps.walletRequested).toMatchObject({ status: "pending_approval" });
    expect(steps.walletActive).toMatchObject({ status: "active" });
    expect(steps.walletActive.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(steps.transferRequested).toMatchObject({ status: "pending_approval" });
    expect(steps.transferSubmitted).toMatchObject({ status: "submitted" });
    expect(steps.transferReconciled).toMatchObject({ status: "completed" });
    expect(steps.transferStatus).toMatchObject({ status: "completed" });
    expect(steps.pendingApprovals).toEqual([steps.transferRequested.approvalRequestId]);
    expect(steps.walletTransfers).toEqual([steps.transferRequested.custodyTransferId]);
  });

  it("cards-issue-fund-authorize.ts: programme, card, funding, simulated authorization, transactions", async () => {
    const steps = await example("cards-issue-fund-authorize.ts", "org_example_cards");
    expect(steps.programme.programmeId).toMatch(/^cprg_/);
    expect(steps.card).toMatchObject({ status: "active", simulated: true });
    expect(steps.funded).toBeDefined();
    expect(steps.authorization).toBeDefined();
    expect(steps.transactions.length).toBeGreaterThanOrEqual(2);
    expect(steps.transactions).toContain("funding");
    expect(steps.transactions).toContain("authorization");
  });
});
