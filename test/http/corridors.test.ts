// Corridor rehearsal: simulate (validation, synchronous screening, route check, planning) and GET of a workflow run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corridor, DE_SOURCE, PERSON, RUN, SIMULATE, US_DESTINATION } from "../helpers/corridors.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_corr";
let server: TestServer;
let call: ReturnType<typeof api>;
let reader: ReturnType<typeof api>;
let other: ReturnType<typeof api>;
let prod: ReturnType<typeof api>;

const runs = (organizationId = ORG) => server.db.prisma.workflowRun.count({ where: { organizationId } });

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["payments:write"] })).key);
  reader = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["payments:read"] })).key);
  other = api(server.url, (await server.createKey({ organizationId: "org_corr_other", scopes: ["payments:write"] })).key);
  prod = api(server.url, (await server.createKey({ organizationId: ORG, environment: "production", scopes: ["payments:write"] })).key);
});
afterAll(() => server?.close());

describe("POST corridor/simulate", () => {
  it("202: screens synchronously, plans every step, queues the run, and points Location at it", async () => {
    const res = await call("POST", SIMULATE, corridor({ organizationId: ORG }), idem());
    expect(res.status, res.text).toBe(202);
    const run = res.json;
    expect(res.headers.get("location")).toBe(RUN(run.workflowRunId));
    expect(run).toMatchObject({
      status: "queued",
      executionMode: "rehearse",
      amount: "1000.00",
      currency: "EUR",
      payoutCurrency: "USD",
      asset: "USDC",
      chain: "base",
      reference: "Family support",
      simulated: true,
    });
    expect(run.nextRunAt).not.toBeNull();
    expect(run.steps.map((s: { name: string; status: string; provider: string }) => [s.name, s.status, s.provider])).toEqual([
      ["screening", "succeeded", "local_fallback"],
      ["fx_quote", "pending", "local_fallback"],
      ["onramp_bank_debit", "pending", "simulator"],
      ["custody_transfer", "pending", "simulator"],
      ["offramp_payout", "pending", "simulator"],
    ]);
    const screening = run.steps[0];
    expect(screening.attempts).toBe(1);
    expect(screening.output.result).toBe("clear");
    const decision = await server.db.prisma.complianceDecision.findUniqueOrThrow({ where: { id: screening.output.screeningDecisionId } });
    expect(decision).toMatchObject({ operation: "simulateCorridor", decision: "allow", organizationId: ORG });
    const event = await server.db.prisma.activityEvent.findFirstOrThrow({ where: { resourceId: run.workflowRunId } });
    expect(event.type).toBe("corridor_run.created");
    const got = await reader("GET", RUN(run.workflowRunId));
    expect(got.status, got.text).toBe(200);
    expect(got.json).toEqual(run);
  });

  it("plan_only: completed at once, every later step skipped, nothing queued", async () => {
    const res = await call("POST", SIMULATE, corridor({ executionMode: "plan_only" }), idem());
    expect(res.status, res.text).toBe(202);
    expect(res.json.status).toBe("completed");
    expect(res.json.nextRunAt).toBeNull();
    expect(res.json.steps.slice(1).every((s: { status: string }) => s.status === "skipped")).toBe(true);
  });

  it("a production key without any connection is still served (a rehearsal never fails closed)", async () => {
    const res = await prod("POST", SIMULATE, corridor(), idem());
    expect(res.status, res.text).toBe(202);
    expect(res.json.steps[0].provider).toBe("local_fallback");
    expect(res.json.simulated).toBe(true);
    const decisions = await server.db.prisma.complianceDecision.count({ where: { organizationId: ORG, environment: "production" } });
    expect(decisions).toBe(2);
  });

  it.each([
    ["a payout rail the destination account cannot take", { rail: "fps" }, "/body/destination/account"],
    [
      "a payout currency the rail does not pay",
      { destination: { account: US_DESTINATION, currency: "EUR" } },
      "/body/destination/currency",
    ],
    [
      "a source that cannot be debited in the currency",
      { source: { ...US_DESTINATION, accountHolderName: "Lena" }, currency: "EUR" },
      "/body/currency",
    ],
    ["a wrong IBAN check digit", { source: { ...DE_SOURCE, iban: "DE88370400440532013000" } }, "/body/source/iban"],
    [
      "a currency without a sandbox FX rate",
      { currency: "THB", source: { ...DE_SOURCE, address: { line1: "x", city: "y", country: "DE" } } },
      "/body/currency",
    ],
    ["DAI on solana", { custody: { asset: "DAI", chain: "solana" } }, "/body/custody/asset"],
    [
      "an unknown custody wallet",
      { custody: { asset: "USDC", chain: "base", walletId: "cw_000000000000000000000000" } },
      "/body/custody/walletId",
    ],
    [
      "an EVM destination address on solana",
      { custody: { asset: "USDC", chain: "solana" }, destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7" },
      "/body/destinationAddress",
    ],
    ["a reference longer than ACH allows", { reference: "R".repeat(81) }, "/body/reference"],
    ["a person without a date of birth (schema)", { person: { firstName: "A", lastName: "B", country: "DE" } }, "/body/person"],
  ])("400 VALIDATION_ERROR for %s; no run", async (_name, overrides, path) => {
    const before = await runs();
    const res = await call("POST", SIMULATE, corridor(overrides), idem());
    expect(res.status, res.text).toBe(400);
    expect(res.json.code).toBe("VALIDATION_ERROR");
    expect(
      res.json.errors.some((e: { path: string }) => e.path.startsWith(path)),
      JSON.stringify(res.json.errors),
    ).toBe(true);
    expect(await runs()).toBe(before);
  });

  it("400 IDEMPOTENCY_KEY_REQUIRED without an Idempotency-Key", async () => {
    const res = await call("POST", SIMULATE, corridor());
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
  });

  it.each([
    ["a sanctioned nationality", { person: { ...PERSON, nationality: "IR" } }, "sanctions.jurisdiction"],
    ["a sanctioned person", { person: { ...PERSON, firstName: "Blocked", lastName: "Person" } }, "sanctions.name"],
    ["a sanctioned destination address", { destinationAddress: "0x7F367cC41522cE07553e823bf3be79A889DEbe1B" }, "sanctions.address"],
    ["a sanctioned receiver jurisdiction", { receiverJurisdiction: "KP" }, "sanctions.jurisdiction"],
  ])("403 COMPLIANCE_BLOCKED for %s; no run is created", async (_name, overrides, rule) => {
    const before = await runs();
    const res = await call("POST", SIMULATE, corridor(overrides), idem());
    expect(res.status, res.text).toBe(403);
    expect(res.json.code).toBe("COMPLIANCE_BLOCKED");
    expect(res.json.reasons.map((r: { rule: string }) => r.rule)).toContain(rule);
    expect(await runs()).toBe(before);
  });

  it("502 PROVIDER_EXECUTION_FAILED when the bank provider fails the route check (reference TIMEOUT…); no run", async () => {
    const before = await runs();
    const res = await call("POST", SIMULATE, corridor({ reference: "TIMEOUT route" }), idem());
    expect(res.status, res.text).toBe(502);
    expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
    expect(await runs()).toBe(before);
  });

  it("503 STORAGE_UNAVAILABLE when the run cannot be recorded: nothing queued, no event", async () => {
    const before = await server.db.prisma.activityEvent.count({ where: { organizationId: ORG, type: "corridor_run.created" } });
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "WorkflowStep" RENAME TO "WorkflowStep_down"`);
    try {
      const res = await call("POST", SIMULATE, corridor(), idem());
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("STORAGE_UNAVAILABLE");
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "WorkflowStep_down" RENAME TO "WorkflowStep"`);
    }
    expect(await server.db.prisma.activityEvent.count({ where: { organizationId: ORG, type: "corridor_run.created" } })).toBe(before);
    expect(await server.db.prisma.workflowRun.count({ where: { organizationId: ORG, steps: { none: {} } } })).toBe(0);
  });

  it("replays byte for byte with the same key, 422 IDEMPOTENCY_KEY_REUSED with another body", async () => {
    const headers = idem();
    const first = await call("POST", SIMULATE, corridor({ amount: "12.00" }), headers);
    const again = await call("POST", SIMULATE, corridor({ amount: "12.00" }), headers);
    expect(again.status).toBe(202);
    expect(again.text).toBe(first.text);
    expect(await server.db.prisma.workflowRun.count({ where: { organizationId: ORG, amount: "12.00" } })).toBe(1);
    const reused = await call("POST", SIMULATE, corridor({ amount: "13.00" }), headers);
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });
});

describe("GET corridor/workflows/{workflowRunId}", () => {
  it.each([
    ["an id of another form", "/api/v2/agent/payments/corridor/workflows/not-a-run-id", 404, "NOT_FOUND"],
    ["an id with the wrong prefix", "/api/v2/agent/payments/corridor/workflows/bt_4Nq7Rz2Kp9Vw3Xy6Bc8Df1", 404, "NOT_FOUND"],
    ["an id longer than 255 characters", `/api/v2/agent/payments/corridor/workflows/wfr_${"a".repeat(260)}`, 400, "VALIDATION_ERROR"],
    ["a query string", "/api/v2/agent/payments/corridor/workflows/wfr_5Tg8Yh1Uj4Ik7Ol0Pm3Nb6?expand=steps", 400, "VALIDATION_ERROR"],
    ["an unknown run", "/api/v2/agent/payments/corridor/workflows/wfr_5Tg8Yh1Uj4Ik7Ol0Pm3Nb6", 404, "NOT_FOUND"],
  ])("%s → %i %s", async (_name, path, status, code) => {
    const res = await reader("GET", path);
    expect(res.status, res.text).toBe(status);
    expect(res.json.code).toBe(code);
    // An over-long id is named where the contract's length refuses it.
    if (status === 400 && !path.includes("?"))
      expect(res.json.errors.map((e: { path: string }) => e.path)).toEqual(["/params/workflowRunId"]);
  });

  it("404 for another organization's run, and for the same organization's production run with a sandbox key", async () => {
    const created = await call("POST", SIMULATE, corridor(), idem());
    expect((await other("GET", RUN(created.json.workflowRunId))).status).toBe(404);
    const inProd = await prod("POST", SIMULATE, corridor(), idem());
    expect((await call("GET", RUN(inProd.json.workflowRunId))).status).toBe(404);
  });

  it("403 FORBIDDEN for a key without a payments scope", async () => {
    const created = await call("POST", SIMULATE, corridor(), idem());
    const walletsOnly = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"] })).key);
    const res = await walletsOnly("GET", RUN(created.json.workflowRunId));
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
  });
});
