// Bank transfers (Sandbox only: simulated): create, status (the simulator advances one state per call), cancel; rail
// validation, screening before the provider, fail-closed production, magic values, and 503 STORAGE_UNAVAILABLE with
// nothing written or sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connectProductionSimulator, idem, insertConnectionRow } from "../helpers/v2.ts";

const ORG = "org_bt";
const CREATE = "/api/v2/agent/payments/bank-transfer";
const STATUS = "/api/v2/agent/payments/bank-transfer/status";
const CANCEL = "/api/v2/agent/payments/bank-transfer/cancel";

const DE_ACCOUNT = {
  type: "iban",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
  accountHolderName: "Acme Trading GmbH",
  bankName: "Commerzbank",
  country: "DE",
};
const FR_ACCOUNT = {
  type: "iban",
  iban: "FR1420041010050500013M02606",
  bic: "PSSTFRPPXXX",
  accountHolderName: "Dupont Fournitures SARL",
  country: "FR",
};
const US_SOURCE = {
  type: "aba",
  routingNumber: "021000021",
  accountNumber: "000123456789",
  accountType: "checking",
  accountHolderName: "Acme Trading Inc.",
  country: "US",
};
const US_DEST = { ...US_SOURCE, routingNumber: "011000015", accountNumber: "4417123456", accountHolderName: "Northwind Logistics LLC" };
const GB_ACCOUNT = { type: "sort_code", sortCode: "040004", accountNumber: "41921234", accountHolderName: "Brit Ltd", country: "GB" };

const sepa = (overrides: Record<string, unknown> = {}) => ({
  amount: "1250.00",
  currency: "EUR",
  source: DE_ACCOUNT,
  destination: FR_ACCOUNT,
  rail: "sepa",
  purposeCode: "SUPP",
  reference: "INV-2026-0042",
  jurisdiction: ["DE", "FR"],
  operatorJurisdiction: "DE",
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
  ...overrides,
});
const lookup = (transferId: string, overrides: Record<string, unknown> = {}) => ({
  transferId,
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
  ...overrides,
});

let server: TestServer;
let call: ReturnType<typeof api>;
let prod: ReturnType<typeof api>;
let other: ReturnType<typeof api>;

const count = (where: Record<string, unknown> = {}) => server.db.prisma.bankTransfer.count({ where: { organizationId: ORG, ...where } });

async function create(overrides: Record<string, unknown> = {}) {
  const res = await call("POST", CREATE, sepa(overrides), idem());
  expect(res.status, res.text).toBe(201);
  return res.json;
}

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["payments:write"] })).key);
  prod = api(server.url, (await server.createKey({ organizationId: ORG, environment: "production", scopes: ["payments:write"] })).key);
  other = api(server.url, (await server.createKey({ organizationId: "org_bt_other", scopes: ["payments:write"] })).key);
});
afterAll(() => server?.close());

describe("POST bank-transfer", () => {
  it("creates a simulated SEPA transfer in pending, masks the accounts, and records a bank_transfer.created event in USD", async () => {
    const res = await call("POST", CREATE, sepa({ organizationId: ORG }), idem());
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      status: "pending",
      amount: "1250.00",
      currency: "EUR",
      rail: "sepa",
      simulated: true,
      provider: "simulator",
      providerReference: null,
      failureReason: null,
      source: { type: "iban", accountNumberMasked: "DE89**************3000", last4: "3000", bic: "COBADEFFXXX" },
      destination: { accountNumberMasked: "FR14*******************2606", bankName: null },
    });
    expect(res.json.transferId).toBe(res.json.id);
    expect(res.json.statusHistory).toEqual([{ status: "pending", at: res.json.createdAt }]);
    const row = await server.db.prisma.bankTransfer.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(row.amountMinor.toFixed(0)).toBe("125000");
    expect(row.providerTransferId).toMatch(/^sim_bt_/);
    const event = await server.db.prisma.activityEvent.findFirstOrThrow({ where: { resourceId: res.json.id } });
    expect(event.type).toBe("bank_transfer.created");
    expect(event.amountUsd?.toFixed(2)).toBe("1350.00");
  });

  it.each([
    [
      "ACH, rail derived from aba accounts",
      { amount: "980", currency: "USD", source: US_SOURCE, destination: US_DEST, rail: undefined, reference: "PO 7781" },
      "ach",
      "980.00",
    ],
    [
      "FPS",
      { amount: "12.5", currency: "GBP", source: GB_ACCOUNT, destination: GB_ACCOUNT, rail: "fps", reference: "RENT" },
      "fps",
      "12.50",
    ],
    [
      "JPY over SWIFT (no minor units)",
      {
        amount: "150000",
        currency: "JPY",
        destination: { ...FR_ACCOUNT, address: { line1: "1 rue de Rivoli", city: "Paris", country: "FR" } },
        source: { ...DE_ACCOUNT, address: { line1: "Friedrichstraße 68", city: "Berlin", country: "DE" } },
        rail: "swift",
      },
      "swift",
      "150000",
    ],
  ])("accepts %s", async (_name, overrides, rail, amount) => {
    const body = sepa(overrides as Record<string, unknown>);
    if ((overrides as { rail?: string }).rail === undefined) delete (body as { rail?: string }).rail;
    const res = await call("POST", CREATE, body, idem());
    expect(res.status, res.text).toBe(201);
    expect(res.json.rail).toBe(rail);
    expect(res.json.amount).toBe(amount);
  });

  it.each([
    ["a wrong IBAN check digit", { destination: { ...FR_ACCOUNT, iban: "FR1520041010050500013M02606" } }, "/body/destination/iban"],
    [
      "a wrong ABA check digit",
      { currency: "USD", rail: "ach", source: { ...US_SOURCE, routingNumber: "021000022" }, destination: US_DEST },
      "/body/source/routingNumber",
    ],
    ["SEPA in USD", { currency: "USD" }, "/body/currency"],
    ["ACH between IBAN accounts", { rail: "ach" }, "/body/source"],
    ["SWIFT without holder addresses", { rail: "swift" }, "/body/source/address"],
    [
      "a reference longer than FPS allows",
      { currency: "GBP", rail: "fps", source: GB_ACCOUNT, destination: GB_ACCOUNT, reference: "A reference of 19 c" },
      "/body/reference",
    ],
    ["more fraction digits than the currency", { amount: "10.001" }, "/body/amount"],
    ["a zero amount", { amount: "0.00" }, "/body/amount"],
    ["an unknown currency code", { currency: "XYZ", rail: "swift" }, "/body/currency"],
    ["an unknown account type (schema)", { source: { type: "bban", number: "1" } }, "/body/source"],
  ])("400 VALIDATION_ERROR for %s, and nothing is recorded", async (_name, overrides, path) => {
    const before = await count();
    const res = await call("POST", CREATE, sepa(overrides), idem());
    expect(res.status, res.text).toBe(400);
    expect(res.json.code).toBe("VALIDATION_ERROR");
    expect(res.json.errors.map((e: { path: string }) => e.path).some((p: string) => p.startsWith(path))).toBe(true);
    expect(await count()).toBe(before);
  });

  it("400 IDEMPOTENCY_KEY_REQUIRED without an Idempotency-Key", async () => {
    const res = await call("POST", CREATE, sepa());
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
  });

  it.each([
    ["a sanctioned jurisdiction", { receiverJurisdiction: "IR" }, "sanctions.jurisdiction"],
    ["a sanctioned account holder", { destination: { ...FR_ACCOUNT, accountHolderName: "Blocked Person" } }, "sanctions.name"],
    ["an amount above the organization's limit", { amount: "2000000.00" }, "policy.amount_limit"],
  ])("403 COMPLIANCE_BLOCKED for %s before any provider call; the decision is on record", async (_name, overrides, rule) => {
    const before = await count();
    const res = await call("POST", CREATE, sepa(overrides), idem());
    expect(res.status, res.text).toBe(403);
    expect(res.json.code).toBe("COMPLIANCE_BLOCKED");
    expect(res.json.reasons.map((r: { rule: string }) => r.rule)).toContain(rule);
    expect(await count()).toBe(before);
    expect(
      await server.db.prisma.complianceDecision.count({
        where: { organizationId: ORG, operation: "createBankTransfer", decision: "block" },
      }),
    ).toBeGreaterThan(0);
  });

  it.each([
    ["reference TIMEOUT…", { reference: "TIMEOUT-1" }],
    ["the shared failing amount 666.66", { amount: "666.66" }],
  ])("502 PROVIDER_EXECUTION_FAILED for %s, and nothing is recorded", async (_name, overrides) => {
    const before = await count();
    const res = await call("POST", CREATE, sepa(overrides), idem());
    expect(res.status, res.text).toBe(502);
    expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
    expect(await count()).toBe(before);
    expect(await server.db.prisma.activityEvent.count({ where: { organizationId: ORG, type: "bank_transfer.created" } })).toBe(before);
  });

  it("424 PROVIDER_NOT_CONNECTED in production: no live bank_transfer adapter, and the simulator cannot be connected", async () => {
    const res = await prod("POST", CREATE, sepa(), idem());
    expect(res.status, res.text).toBe(424);
    expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
    expect(await count({ environment: "production" })).toBe(0);
    expect(await server.db.prisma.complianceDecision.count({ where: { organizationId: ORG, environment: "production" } })).toBe(0);
    expect((await connectProductionSimulator(server, ORG, "bank_transfer")).status).toBe(400);
    // A production simulator row from before the admin API refused them serves nothing either.
    await insertConnectionRow(server, { organizationId: ORG, environment: "production", category: "bank_transfer" });
    await insertConnectionRow(server, { organizationId: ORG, environment: "production", category: "compliance_screening" });
    const still = await prod("POST", CREATE, sepa(), idem());
    expect(still.status, still.text).toBe(424);
    expect(await count({ environment: "production" })).toBe(0);
  });

  it("503 STORAGE_UNAVAILABLE when the transfer cannot be recorded: nothing written, nothing sent, the key is freed", async () => {
    const before = await count();
    const events = await server.db.prisma.activityEvent.count({ where: { organizationId: ORG, type: "bank_transfer.created" } });
    const headers = idem();
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "BankTransfer" RENAME TO "BankTransfer_down"`);
    try {
      const res = await call("POST", CREATE, sepa({ amount: "77.00" }), headers);
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("STORAGE_UNAVAILABLE");
      expect(res.headers.get("retry-after")).not.toBeNull();
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "BankTransfer_down" RENAME TO "BankTransfer"`);
    }
    expect(await count()).toBe(before);
    expect(await server.db.prisma.activityEvent.count({ where: { organizationId: ORG, type: "bank_transfer.created" } })).toBe(events);
    const retried = await call("POST", CREATE, sepa({ amount: "77.00" }), headers);
    expect(retried.status).toBe(201);
  });

  it("replays the first answer byte for byte for the same key; 422 IDEMPOTENCY_KEY_REUSED for another body", async () => {
    const headers = idem();
    const first = await call("POST", CREATE, sepa({ amount: "5.00" }), headers);
    const again = await call("POST", CREATE, sepa({ amount: "5.00" }), headers);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await count({ amountMinor: 500 })).toBe(1);
    const reused = await call("POST", CREATE, sepa({ amount: "6.00" }), headers);
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });
});

describe("POST bank-transfer/status", () => {
  it.each([
    ["1250.00", ["processing", "completed"], null],
    ["13.13", ["processing", "failed"], { code: "insufficient_funds", railCode: "AM04" }],
    ["14.14", ["processing", "returned"], { code: "account_closed", railCode: "AC04" }],
  ])("amount %s: each call advances one state, then the terminal transfer is returned as stored", async (amount, states, failure) => {
    const created = await create({ amount });
    const seen = [];
    for (const _ of states) {
      const res = await call("POST", STATUS, lookup(created.id));
      expect(res.status, res.text).toBe(200);
      seen.push(res.json.status);
    }
    expect(seen).toEqual(states);
    const final = await call("POST", STATUS, lookup(created.id), idem());
    expect(final.json.status).toBe(states.at(-1));
    expect(final.json.statusHistory.map((h: { status: string }) => h.status)).toEqual(["pending", ...states]);
    expect(final.json.providerReference).toMatch(/^E2E-[0-9A-F]{16}$/);
    if (failure) expect(final.json.failureReason).toMatchObject(failure);
    else expect(final.json.failureReason).toBeNull();
  });

  it("uses ACH return codes on ach", async () => {
    const created = await create({ amount: "13.13", currency: "USD", rail: "ach", source: US_SOURCE, destination: US_DEST });
    await call("POST", STATUS, lookup(created.id));
    const res = await call("POST", STATUS, lookup(created.id));
    expect(res.json.failureReason).toMatchObject({ code: "insufficient_funds", railCode: "R01" });
    expect(res.json.providerReference).toMatch(/^[0-9]{15}$/);
  });

  it.each([
    ["unknown transfer", () => lookup("bt_000000000000000000000000"), 404, "NOT_FOUND"],
    ["other regime", (id: string) => lookup(id, { receiverJurisdiction: "ES" }), 400, "VALIDATION_ERROR"],
    ["malformed id", () => lookup("nope"), 400, "VALIDATION_ERROR"],
  ])("%s → %i %s", async (_name, body, status, code) => {
    const created = await create();
    const res = await call("POST", STATUS, body(created.id));
    expect(res.status, res.text).toBe(status);
    expect(res.json.code).toBe(code);
  });

  it("404 for another organization's transfer", async () => {
    const created = await create();
    const res = await other("POST", STATUS, lookup(created.id));
    expect(res.status).toBe(404);
  });

  it("502 PROVIDER_EXECUTION_FAILED when the provider cannot be queried (reference UNREACHABLE…); nothing changes", async () => {
    const created = await create({ reference: "UNREACHABLE-1" });
    const res = await call("POST", STATUS, lookup(created.id));
    expect(res.status, res.text).toBe(502);
    expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
    const row = await server.db.prisma.bankTransfer.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.status).toBe("pending");
    expect(row.version).toBe(1);
  });

  it("concurrent status calls record each transition once", async () => {
    const created = await create();
    const results = await Promise.all(Array.from({ length: 6 }, () => call("POST", STATUS, lookup(created.id))));
    for (const r of results) expect(r.status, r.text).toBe(200);
    const row = await server.db.prisma.bankTransfer.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.status).toBe("completed");
    expect((row.statusHistory as unknown[]).length).toBe(3);
    expect(row.version).toBe(3);
  });
});

describe("POST bank-transfer/cancel", () => {
  it("cancels a pending and a processing transfer", async () => {
    const pending = await create();
    const res = await call("POST", CANCEL, lookup(pending.id), idem());
    expect(res.status, res.text).toBe(200);
    expect(res.json.status).toBe("cancelled");
    expect(res.json.statusHistory.map((h: { status: string }) => h.status)).toEqual(["pending", "cancelled"]);
    const processing = await create();
    await call("POST", STATUS, lookup(processing.id));
    const recalled = await call("POST", CANCEL, lookup(processing.id), idem());
    expect(recalled.json.status).toBe("cancelled");
    // A cancelled transfer is terminal: status returns it as stored.
    expect((await call("POST", STATUS, lookup(processing.id))).json.status).toBe("cancelled");
  });

  it.each(["completed", "cancelled"])("409 STATE_CONFLICT for a %s transfer; nothing changes", async (state) => {
    const created = await create();
    if (state === "completed") {
      await call("POST", STATUS, lookup(created.id));
      await call("POST", STATUS, lookup(created.id));
    } else {
      await call("POST", CANCEL, lookup(created.id), idem());
    }
    const before = await server.db.prisma.bankTransfer.findUniqueOrThrow({ where: { id: created.id } });
    const res = await call("POST", CANCEL, lookup(created.id), idem());
    expect(res.status, res.text).toBe(409);
    expect(res.json.code).toBe("STATE_CONFLICT");
    const after = await server.db.prisma.bankTransfer.findUniqueOrThrow({ where: { id: created.id } });
    expect(after.version).toBe(before.version);
    expect(after.status).toBe(state);
  });

  it("400 IDEMPOTENCY_KEY_REQUIRED, 400 VALIDATION_ERROR for another regime, 404 for an unknown transfer", async () => {
    const created = await create();
    expect((await call("POST", CANCEL, lookup(created.id))).json.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
    expect((await call("POST", CANCEL, lookup(created.id, { senderJurisdiction: "AT" }), idem())).json.code).toBe("VALIDATION_ERROR");
    expect((await call("POST", CANCEL, lookup("bt_000000000000000000000000"), idem())).status).toBe(404);
  });

  it("502 when the provider refuses (reference UNREACHABLE…): the cancellation is rolled back", async () => {
    const created = await create({ reference: "UNREACHABLE-2" });
    const res = await call("POST", CANCEL, lookup(created.id), idem());
    expect(res.status).toBe(502);
    expect(res.json.code).toBe("PROVIDER_EXECUTION_FAILED");
    expect((await server.db.prisma.bankTransfer.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("pending");
  });

  it("503 STORAGE_UNAVAILABLE when the cancellation cannot be recorded: the provider is not asked, nothing changes", async () => {
    const created = await create();
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "BankTransfer" RENAME TO "BankTransfer_down"`);
    try {
      const res = await call("POST", CANCEL, lookup(created.id), idem());
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("STORAGE_UNAVAILABLE");
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "BankTransfer_down" RENAME TO "BankTransfer"`);
    }
    expect((await server.db.prisma.bankTransfer.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("pending");
  });
});
