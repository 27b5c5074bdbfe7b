// The platform codes the description lists for the ten payments and custody endpoints, produced for real on each:
// 401, 403, 429 RATE_LIMIT_EXCEEDED, 503 RATE_LIMIT_UNAVAILABLE, 409 IDEMPOTENCY_IN_PROGRESS, 422 IDEMPOTENCY_KEY_REUSED,
// 503 IDEMPOTENCY_UNAVAILABLE, and 500 INTERNAL_ERROR without internals. (Endpoint-specific codes live in
// bank-transfers, corridors, corridor-dispatch and custody tests.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintRequest } from "../../server/idempotency/idempotency-key.ts";
import { type RateLimitDecision, type RateLimiter, RateLimitStoreError } from "../../server/rate-limit/rate-limiter.ts";
import { corridor, DISPATCH, RUN, SCHEDULER, SIMULATE } from "../helpers/corridors.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";

const ORG = "org_codes";
let mode: "ok" | "exceeded" | "down" = "ok";
const limiter: RateLimiter = {
  async consume(): Promise<RateLimitDecision> {
    if (mode === "down") throw new RateLimitStoreError("store down");
    return { allowed: mode === "ok", limit: 100, remaining: mode === "ok" ? 99 : 0, resetSeconds: 30, windowSeconds: 60 };
  },
  ready: async () => {},
  close: async () => {},
};

let server: TestServer;
let call: ReturnType<typeof api>;
let apiKeyId: string;
let cardsOnly: ReturnType<typeof api>;
let anonymous: ReturnType<typeof api>;

const LOOKUP = { transferId: "bt_000000000000000000000000", senderJurisdiction: "DE", receiverJurisdiction: "FR" };
const BANK = {
  amount: "10.00",
  currency: "EUR",
  source: { type: "iban", iban: "DE89370400440532013000", accountHolderName: "Acme GmbH", country: "DE" },
  destination: { type: "iban", iban: "FR1420041010050500013M02606", accountHolderName: "Dupont SARL", country: "FR" },
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
};

interface Endpoint {
  name: string;
  path: string;
  method?: string;
  body?: Record<string, unknown>;
  /** Another valid body (for 422). */
  other?: Record<string, unknown>;
  idempotency: "required" | "optional" | "none";
  /** A table whose loss is an unexpected failure there (500). */
  breaks?: string;
  /** A fresh key is checked by the closing statement that records the write (server/db/unit-of-work/run-unit.ts,
   * "Checked at close"), not read first. */
  keyCheckedAtClose?: true;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: "bank-transfer",
    path: "/api/v2/agent/payments/bank-transfer",
    body: BANK,
    other: { ...BANK, amount: "11.00" },
    idempotency: "required",
    keyCheckedAtClose: true,
  },
  {
    name: "bank-transfer/status",
    path: "/api/v2/agent/payments/bank-transfer/status",
    body: LOOKUP,
    other: { ...LOOKUP, transferId: "bt_111111111111111111111111" },
    idempotency: "optional",
    breaks: "BankTransfer",
  },
  {
    name: "bank-transfer/cancel",
    path: "/api/v2/agent/payments/bank-transfer/cancel",
    body: LOOKUP,
    other: { ...LOOKUP, transferId: "bt_111111111111111111111111" },
    idempotency: "required",
  },
  { name: "corridor/simulate", path: SIMULATE, body: corridor(), other: corridor({ amount: "5.00" }), idempotency: "required" },
  { name: "corridor/workflows/{id}", path: RUN("wfr_5Tg8Yh1Uj4Ik7Ol0Pm3Nb6"), method: "GET", idempotency: "none", breaks: "WorkflowRun" },
  {
    name: "custody/wallets",
    path: "/api/v2/agent/custody/wallets",
    body: { label: "a", chain: "base", type: "mpc" },
    other: { label: "b", chain: "base", type: "mpc" },
    idempotency: "required",
    breaks: "CustodyWallet",
  },
  {
    name: "custody/wallets/balance",
    path: "/api/v2/agent/custody/wallets/balance",
    body: { walletId: "cw_000000000000000000000000" },
    other: { walletId: "cw_111111111111111111111111" },
    idempotency: "optional",
    breaks: "CustodyWallet",
  },
  {
    name: "custody/transfers",
    path: "/api/v2/agent/custody/transfers",
    body: { custodyTransferId: "ct_000000000000000000000000", expectedVersion: 1 },
    other: { custodyTransferId: "ct_000000000000000000000000", expectedVersion: 2 },
    idempotency: "required",
    breaks: "CustodyTransfer",
  },
  {
    name: "custody/transfers/status",
    path: "/api/v2/agent/custody/transfers/status",
    body: { custodyTransferId: "ct_000000000000000000000000" },
    other: { custodyTransferId: "ct_111111111111111111111111" },
    idempotency: "optional",
    breaks: "CustodyTransfer",
  },
];
const keyed = ENDPOINTS.map((e) => [e.name, e] as const);
const idempotent = ENDPOINTS.filter((e) => e.idempotency !== "none").map((e) => [e.name, e] as const);

const send = (e: Endpoint, caller = call, headers: Record<string, string> = {}, body = e.body) =>
  caller(e.method ?? "POST", e.path, body, headers);

beforeAll(async () => {
  server = await startTestServer({ rateLimiter: limiter });
  const key = await server.createKey({ organizationId: ORG, scopes: ["payments:write", "wallets:write"] });
  apiKeyId = key.id;
  call = api(server.url, key.key);
  cardsOnly = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["cards:write", "compliance:write"] })).key);
  anonymous = api(server.url);
  await connect(server, { organizationId: ORG, category: "custody" });
});
afterAll(() => server?.close());

describe("every payments and custody endpoint", () => {
  it.each(keyed)("%s: 401 UNAUTHORIZED without a key", async (_n, e) => {
    const res = await send(e, anonymous, e.idempotency === "none" ? {} : idem());
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("UNAUTHORIZED");
  });

  it.each(keyed)("%s: 403 FORBIDDEN for a key of another resource", async (_n, e) => {
    const res = await send(e, cardsOnly, e.idempotency === "none" ? {} : idem());
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
  });

  it.each(keyed)("%s: 429 RATE_LIMIT_EXCEEDED and 503 RATE_LIMIT_UNAVAILABLE, with Retry-After", async (_n, e) => {
    try {
      mode = "exceeded";
      const limited = await send(e, call, e.idempotency === "none" ? {} : idem());
      expect(limited.status).toBe(429);
      expect(limited.json.code).toBe("RATE_LIMIT_EXCEEDED");
      expect(limited.headers.get("retry-after")).toBe("30");
      mode = "down";
      const down = await send(e, call, e.idempotency === "none" ? {} : idem());
      expect(down.status).toBe(503);
      expect(down.json.code).toBe("RATE_LIMIT_UNAVAILABLE");
      expect(down.headers.get("retry-after")).not.toBeNull();
    } finally {
      mode = "ok";
    }
  });

  it.each(idempotent)("%s: 422 IDEMPOTENCY_KEY_REUSED for the same key with another body", async (_n, e) => {
    const headers = idem();
    const first = await send(e, call, headers);
    expect(first.status).toBeLessThan(500);
    const reused = await send(e, call, headers, e.other);
    expect(reused.status, reused.text).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it.each(idempotent)("%s: 409 IDEMPOTENCY_IN_PROGRESS while the same request still runs", async (_n, e) => {
    const key = `in-progress-${e.name}`;
    const future = new Date(Date.now() + 3_600_000);
    await server.db.prisma.idempotencyRecord.create({
      data: {
        id: `idem_${e.name.replace(/[^a-z]/g, "")}`,
        organizationId: ORG,
        apiKeyId,
        method: "POST",
        path: e.path,
        key,
        fingerprint: fingerprintRequest("POST", e.path, e.body),
        state: "in_progress",
        lockToken: "running",
        lockedUntil: future,
        expiresAt: future,
      },
    });
    const res = await send(e, call, { "idempotency-key": key });
    expect(res.status, res.text).toBe(409);
    expect(res.json.code).toBe("IDEMPOTENCY_IN_PROGRESS");
  });

  it.each(idempotent)("%s: 503 IDEMPOTENCY_UNAVAILABLE when the store fails, with no effect", async (_n, e) => {
    const runs = await server.db.prisma.workflowRun.count();
    const transfers = await server.db.prisma.bankTransfer.count();
    const wallets = await server.db.prisma.custodyWallet.count();
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecord" RENAME TO "IdempotencyRecord_down"`);
    try {
      const headers = idem();
      if (e.keyCheckedAtClose) {
        // The fresh key's first statement is the closing one, which records the transfer with the key's claim: it fails
        // as a whole, and nothing reached the provider.
        const fresh = await send(e, call, headers);
        expect(fresh.status, fresh.text).toBe(503);
        expect(fresh.json.code).toBe("STORAGE_UNAVAILABLE");
      }
      // The retry of a key whose check at close failed here (as every key of the other endpoints) is read first, and the
      // read fails.
      const res = await send(e, call, headers);
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("IDEMPOTENCY_UNAVAILABLE");
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecord_down" RENAME TO "IdempotencyRecord"`);
    }
    expect(await server.db.prisma.workflowRun.count()).toBe(runs);
    expect(await server.db.prisma.bankTransfer.count()).toBe(transfers);
    expect(await server.db.prisma.custodyWallet.count()).toBe(wallets);
  });

  it.each(ENDPOINTS.filter((e) => e.breaks).map((e) => [e.name, e] as const))(
    "%s: 500 INTERNAL_ERROR without internals when its own table fails unexpectedly",
    async (_n, e) => {
      const table = e.breaks as string;
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "${table}" RENAME TO "${table}_gone"`);
      try {
        const res = await send(e, call, e.idempotency === "none" ? {} : idem());
        expect(res.status, res.text).toBe(500);
        expect(res.json.code).toBe("INTERNAL_ERROR");
        expect(res.text).not.toMatch(/does not exist|prisma|\.ts:/i);
      } finally {
        await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "${table}_gone" RENAME TO "${table}"`);
      }
    },
  );

  it("dispatch is not keyed: no rate limit or idempotency applies, only the scheduler secret", async () => {
    mode = "down";
    try {
      const res = await anonymous("POST", DISPATCH, undefined, SCHEDULER);
      expect(res.status, res.text).toBe(200);
    } finally {
      mode = "ok";
    }
  });
});
