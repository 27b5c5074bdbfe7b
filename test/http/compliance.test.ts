import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthContext } from "../../server/context.ts";
import { runUnitOfWork, type UnitOfWork } from "../../server/db/unit-of-work/index.ts";
import { enforceCompliance } from "../../server/domain/compliance/enforce-compliance.ts";
import { evaluateCompliance } from "../../server/domain/compliance/evaluate-compliance.ts";
import { ServiceError } from "../../server/errors/service-error.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const SCREEN = "/api/v2/agent/compliance/screen";
const EVALUATE = "/api/v2/agent/policy/evaluate";
const LISTED_EVM = "0x7F367cC41522cE07553e823bf3be79A889DEbe1B";
const LISTED_SOL = "GEfMpAf3au2neHdsQ7nPg3pQ99P51XaybPrgCYHNc6k2";
const CLEAN_EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const ORG = "org_cmp";

let server: TestServer;
let call: ReturnType<typeof api>;
let complianceKeyId: string;

const admin = (method: string, path: string, body?: unknown) =>
  api(server.url)(method, path, body, { authorization: `Bearer ${server.adminToken}` });
const setPolicy = (organizationId: string, policy: { blockedJurisdictions: string[]; maxAmountUsd: string }) =>
  admin("PUT", `/api/admin/organizations/${organizationId}/settings`, { policy });
const decisionsOf = (requestId: string) => server.db.prisma.complianceDecision.findMany({ where: { requestId }, orderBy: { kind: "asc" } });

beforeAll(async () => {
  server = await startTestServer();
  const key = await server.createKey({ organizationId: ORG, scopes: ["compliance:write"] });
  complianceKeyId = key.id;
  call = api(server.url, key.key);
});
afterAll(() => server?.close());

describe("POST /api/v2/agent/compliance/screen", () => {
  it("allows a clean subject, records the decision and a compliance.screened event", async () => {
    const res = await call("POST", SCREEN, {
      parties: [
        { role: "sender", name: "Acme Trading GmbH", country: "DE" },
        { role: "receiver", name: "Dupont Fournitures SARL", country: "FR", dateOfBirth: "1980-04-12" },
      ],
      addresses: [{ role: "receiver", chain: "base", address: CLEAN_EVM }],
      jurisdiction: ["DE", "FR"],
      operatorJurisdiction: "DE",
      senderJurisdiction: "DE",
      receiverJurisdiction: "FR",
      organizationId: ORG,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      decisionId: expect.stringMatching(/^cdec_[A-Za-z0-9]{22}$/),
      decision: "allow",
      reasons: [],
      source: "compliance_screening:sandbox",
      simulated: true,
      screenedAt: expect.any(String),
    });
    const requestId = res.headers.get("x-request-id") as string;
    const rows = await decisionsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: res.json.decisionId,
      organizationId: ORG,
      environment: "sandbox",
      kind: "screening",
      decision: "allow",
      operation: "screen",
      reasons: [],
    });
    expect(rows[0]?.subject).toMatchObject({ jurisdictions: { receiverJurisdiction: "FR" }, addresses: [{ address: CLEAN_EVM }] });
    const events = await server.db.prisma.activityEvent.findMany({ where: { resourceId: res.json.decisionId } });
    expect(events.map((e) => e.type)).toEqual(["compliance.screened"]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a listed EVM address", { addresses: [{ role: "receiver", chain: "ethereum", address: LISTED_EVM }] }, "sanctions.address"],
    ["a listed EVM address in lower case", { addresses: [{ role: "receiver", address: LISTED_EVM.toLowerCase() }] }, "sanctions.address"],
    ["the listed Solana address", { addresses: [{ role: "receiver", chain: "solana", address: LISTED_SOL }] }, "sanctions.address"],
    ["a listed name", { parties: [{ role: "receiver", name: "Blocked Person" }] }, "sanctions.name"],
    ["a listed name, accented and spaced", { parties: [{ role: "sender", name: "  ivan   SANCTIONÉD " }] }, "sanctions.name"],
    ["a party country", { parties: [{ role: "receiver", name: "Some One", country: "CU" }] }, "sanctions.jurisdiction"],
    ["jurisdiction[]", { jurisdiction: ["DE", "KP"] }, "sanctions.jurisdiction"],
    ["operatorJurisdiction", { operatorJurisdiction: "SY" }, "sanctions.jurisdiction"],
    ["senderJurisdiction", { senderJurisdiction: "CU" }, "sanctions.jurisdiction"],
    ["receiverJurisdiction (subdivision IR-07)", { receiverJurisdiction: "IR-07" }, "sanctions.jurisdiction"],
  ])("blocks %s with 200 and records the block", async (_name, body, rule) => {
    const res = await call("POST", SCREEN, body);
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe("block");
    expect(res.json.reasons).toEqual([{ stage: "screening", rule, message: expect.any(String) }]);
    const row = await server.db.prisma.complianceDecision.findUnique({ where: { id: res.json.decisionId } });
    expect(row).toMatchObject({ kind: "screening", decision: "block", reasons: res.json.reasons });
  });

  it("does not apply the amount limit (that is policy)", async () => {
    const res = await call("POST", SCREEN, { senderJurisdiction: "DE", amount: "5000000", currency: "USD" });
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe("allow");
  });

  it("replays an idempotent screening without recording a second decision", async () => {
    const body = { addresses: [{ role: "receiver", address: LISTED_EVM }] };
    const headers = { "idempotency-key": "screen-replay-1" };
    const first = await call("POST", SCREEN, body, headers);
    const second = await call("POST", SCREEN, body, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json).toEqual(first.json);
    const rows = await server.db.prisma.complianceDecision.findMany({ where: { id: first.json.decisionId } });
    expect(rows).toHaveLength(1);
    const reused = await call("POST", SCREEN, { addresses: [{ role: "receiver", address: CLEAN_EVM }] }, headers);
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });
});

describe("POST /api/v2/agent/policy/evaluate", () => {
  it("allows within policy, records both decisions, and reports the policy and USD amount", async () => {
    const res = await call("POST", EVALUATE, {
      parties: [{ role: "receiver", name: "Dupont Fournitures SARL", country: "FR" }],
      senderJurisdiction: "DE",
      receiverJurisdiction: "FR",
      amount: "1250.00",
      currency: "EUR",
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      decision: "allow",
      reasons: [],
      screeningDecisionId: expect.stringMatching(/^cdec_/),
      policyDecisionId: expect.stringMatching(/^cdec_/),
      policy: { blockedJurisdictions: [], maxAmountUsd: "1000000" },
      amountUsd: "1350.00",
      source: "compliance_screening:sandbox",
      simulated: true,
      evaluatedAt: expect.any(String),
    });
    const rows = await decisionsOf(res.headers.get("x-request-id") as string);
    expect(rows.map((r) => [r.kind, r.decision, r.operation, r.id])).toEqual([
      ["policy", "allow", "evaluatePolicy", res.json.policyDecisionId],
      ["screening", "allow", "evaluatePolicy", res.json.screeningDecisionId],
    ]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["above the default limit", { amount: "1000000.01", currency: "USDC" }, ["policy.amount_limit"]],
    ["EUR above the limit in USD", { amount: "950000", currency: "EUR" }, ["policy.amount_limit"]],
    ["a currency without a rate", { amount: "10", currency: "XAU" }, ["policy.currency_unsupported"]],
    [
      "a listed address and a large amount",
      { addresses: [{ role: "receiver", address: LISTED_EVM }], amount: "2000000", currency: "USD" },
      ["sanctions.address", "policy.amount_limit"],
    ],
  ])("blocks %s with 200", async (_name, body, rules) => {
    const res = await call("POST", EVALUATE, body);
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe("block");
    expect(res.json.reasons.map((r: { rule: string }) => r.rule)).toEqual(rules);
    const rows = await decisionsOf(res.headers.get("x-request-id") as string);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const own = res.json.reasons.filter((r: { stage: string }) => r.stage === row.kind);
      expect(row.decision).toBe(own.length > 0 ? "block" : "allow");
      expect(row.reasons).toEqual(own);
    }
  });

  it("applies the limit after the admin lowers and raises it", async () => {
    const org = "org_cmp_limits";
    const c = api(server.url, (await server.createKey({ organizationId: org, scopes: ["compliance:write"] })).key);
    const evaluate = (amount: string) => c("POST", EVALUATE, { amount, currency: "USD" });
    expect((await evaluate("5000")).json.decision).toBe("allow");

    expect((await setPolicy(org, { blockedJurisdictions: [], maxAmountUsd: "1000" })).status).toBe(200);
    const lowered = await evaluate("1000.01");
    expect(lowered.json.decision).toBe("block");
    expect(lowered.json.reasons[0]).toMatchObject({ stage: "policy", rule: "policy.amount_limit" });
    expect(lowered.json.policy).toEqual({ blockedJurisdictions: [], maxAmountUsd: "1000" });
    expect((await evaluate("1000")).json.decision).toBe("allow");

    expect((await setPolicy(org, { blockedJurisdictions: [], maxAmountUsd: "5000000" })).status).toBe(200);
    expect((await evaluate("4000000")).json.decision).toBe("allow");
    expect((await evaluate("5000000.01")).json.decision).toBe("block");
  });

  it.each<[string, Record<string, unknown>]>([
    ["jurisdiction[]", { jurisdiction: ["FR", "RU"] }],
    ["operatorJurisdiction", { operatorJurisdiction: "RU" }],
    ["senderJurisdiction", { senderJurisdiction: "RU-MOW" }],
    ["receiverJurisdiction", { receiverJurisdiction: "BY" }],
    ["a party country", { parties: [{ role: "receiver", country: "BY" }] }],
  ])("blocks an organization-blocked jurisdiction in %s", async (_name, body) => {
    const org = "org_cmp_jurisdictions";
    const c = api(server.url, (await server.createKey({ organizationId: org, scopes: ["compliance:write"] })).key);
    expect((await setPolicy(org, { blockedJurisdictions: ["RU", "BY"], maxAmountUsd: "1000000" })).status).toBe(200);
    const res = await c("POST", EVALUATE, body);
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe("block");
    expect(res.json.reasons).toEqual([{ stage: "policy", rule: "policy.jurisdiction_blocked", message: expect.any(String) }]);
    // Another organization's policy does not apply here.
    expect((await call("POST", EVALUATE, body)).json.decision).toBe("allow");
  });

  it("accepts an amount alone", async () => {
    const res = await call("POST", EVALUATE, { amount: "10", currency: "USD" });
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe("allow");
  });
});

describe.each([SCREEN, EVALUATE])("%s: validation and access", (path) => {
  it.each<[string, unknown, string]>([
    ["an empty body", {}, "/body"],
    ["empty arrays only", { jurisdiction: [] }, "/body"],
    ["an amount without currency", { senderJurisdiction: "DE", amount: "10" }, "/body"],
    ["a currency without amount", { senderJurisdiction: "DE", currency: "USD" }, "/body"],
    ["a party with neither name nor country", { parties: [{ role: "sender" }] }, "/body/parties/0"],
    ["an unknown field", { senderJurisdiction: "DE", memo: "x" }, "/body"],
    ["a lower-case country", { senderJurisdiction: "de" }, "/body/senderJurisdiction"],
    ["an over-long name", { parties: [{ role: "sender", name: "x".repeat(141) }] }, "/body/parties/0/name"],
    ["an address with spaces", { addresses: [{ role: "receiver", address: "0x 12" }] }, "/body/addresses/0/address"],
    ["an empty parties array", { parties: [] }, "/body/parties"],
  ])("rejects %s with 400 VALIDATION_ERROR and records nothing", async (_name, body, errorPath) => {
    const before = await server.db.prisma.complianceDecision.count();
    const res = await call("POST", path, body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(res.json.code).toBe("VALIDATION_ERROR");
    expect(res.json.errors.some((e: { path: string }) => e.path.startsWith(errorPath))).toBe(true);
    expect(await server.db.prisma.complianceDecision.count()).toBe(before);
  });

  it("answers 401 without a key", async () => {
    const res = await api(server.url)("POST", path, { senderJurisdiction: "DE" });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("UNAUTHORIZED");
  });

  it.each([
    ["wallets only", ["wallets:write"]],
    ["payments only", ["payments:write"]],
    ["compliance:read only", ["compliance:read"]],
  ])("answers 403 FORBIDDEN to a key with %s", async (_name, scopes) => {
    const other = api(server.url, (await server.createKey({ organizationId: ORG, scopes })).key);
    const res = await other("POST", path, { senderJurisdiction: "DE" });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
  });

  it("answers 403 FORBIDDEN when organizationId is not the key's, 200 when it is", async () => {
    const res = await call("POST", path, { senderJurisdiction: "DE", organizationId: "org_someone_else" });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
    expect((await call("POST", path, { senderJurisdiction: "DE", organizationId: ORG })).status).toBe(200);
  });
});

describe("a compliance-only key", () => {
  it("does not reach payments or wallets", async () => {
    expect((await call("GET", "/api/v1/payments")).status).toBe(403);
    expect((await call("POST", "/api/v1/wallets", { chain: "base" })).status).toBe(403);
  });
});

describe("enforceCompliance / evaluateCompliance (module API)", () => {
  const auth = (): AuthContext => ({
    apiKeyId: complianceKeyId,
    organizationId: ORG,
    environment: "sandbox",
    scopes: ["compliance:write"],
    actor: "test",
  });

  /** Runs `work` as a write's unit of work (with an Idempotency-Key, so a business error keeps its kept-on-error rows). */
  async function inUnitOfWork<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    let value: T | undefined;
    await runUnitOfWork(
      {
        db: server.db.kysely,
        claim: { organizationId: ORG, apiKeyId: complianceKeyId, method: "POST", path: "/test", key: randomUUID(), fingerprint: "test" },
        ttlHours: 24,
        lockSeconds: 30,
        renderError: (error) => ({ contentType: "application/json", body: { code: error.code } }),
      },
      async (uow) => {
        value = await work(uow);
        return { status: 200, body: null };
      },
    );
    return value as T;
  }

  it("throws COMPLIANCE_BLOCKED with reasons and still records both decisions", async () => {
    const requestId = "req_enforce_block_1";
    const subject = {
      operation: "createBankTransfer",
      parties: [{ role: "receiver", name: "Ivan Sanctioned" }],
      jurisdictions: { senderJurisdiction: "DE", receiverJurisdiction: "IR" },
      amount: { value: "2000000", currency: "USD" },
    };
    const error = await inUnitOfWork((uow) => enforceCompliance({ uow, auth: auth(), subject, requestId })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    const serviceError = error as ServiceError;
    expect(serviceError.code).toBe("COMPLIANCE_BLOCKED");
    expect(serviceError.status).toBe(403);
    const reasons = serviceError.extensions?.reasons as Array<{ stage: string; rule: string }>;
    expect(reasons.map((r) => [r.stage, r.rule])).toEqual([
      ["screening", "sanctions.name"],
      ["screening", "sanctions.jurisdiction"],
      ["policy", "policy.amount_limit"],
    ]);
    const rows = await decisionsOf(requestId);
    expect(rows.map((r) => [r.kind, r.decision, r.operation])).toEqual([
      ["policy", "block", "createBankTransfer"],
      ["screening", "block", "createBankTransfer"],
    ]);
    expect(rows[1]?.subject).toEqual({
      parties: subject.parties,
      jurisdictions: subject.jurisdictions,
      amount: subject.amount,
    });
  });

  it("returns the decision ids on allow", async () => {
    const result = await inUnitOfWork((uow) =>
      enforceCompliance({
        uow,
        auth: auth(),
        subject: {
          operation: "invokeProvider",
          addresses: [{ role: "receiver", address: CLEAN_EVM }],
          amount: { value: "10", currency: "USDC" },
        },
        requestId: "req_enforce_allow_1",
      }),
    );
    // enforceCompliance now returns the whole evaluation (policy, amountUsd, evaluatedAt too).
    expect(result).toMatchObject({
      decision: "allow",
      reasons: [],
      screeningDecisionId: expect.any(String),
      policyDecisionId: expect.any(String),
    });
    const rows = await decisionsOf("req_enforce_allow_1");
    expect(rows.map((r) => r.id).sort()).toEqual([result.screeningDecisionId, result.policyDecisionId].sort());
  });

  it("evaluateCompliance answers block without throwing", async () => {
    const result = await inUnitOfWork((uow) =>
      evaluateCompliance({
        uow,
        auth: auth(),
        subject: { operation: "invokeProvider", addresses: [{ role: "receiver", address: LISTED_SOL }] },
      }),
    );
    expect(result.decision).toBe("block");
    expect(result.reasons).toEqual([{ stage: "screening", rule: "sanctions.address", message: expect.any(String) }]);
    const policy = await server.db.prisma.complianceDecision.findUnique({ where: { id: result.policyDecisionId } });
    expect(policy).toMatchObject({ kind: "policy", decision: "allow", requestId: null });
  });
});
