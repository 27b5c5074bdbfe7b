// The idempotency engine over a v2 write (providers/invoke, which records an invocation per execution).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect } from "../helpers/v2.ts";

const INVOKE = "/api/v2/agent/providers/invoke";
const quote = (sellAmount: string) => ({
  providerSlug: "simulator",
  category: "fx",
  operation: "quote",
  input: { sellCurrency: "USD", buyCurrency: "GBP", sellAmount },
});

let server: TestServer;
let call: ReturnType<typeof api>;
let apiKeyId: string;

const invocationsOf = (sellAmount: string) =>
  server.db.prisma.providerInvocation.count({ where: { input: { path: ["sellAmount"], equals: sellAmount } } });

beforeAll(async () => {
  server = await startTestServer();
  const key = await server.createKey({ scopes: ALL_WRITE_SCOPES });
  apiKeyId = key.id;
  call = api(server.url, key.key);
  await connect(server, { category: "fx" });
});
afterAll(() => server?.close());

describe("idempotency", () => {
  it("50 concurrent identical POSTs with one key → exactly one effect; the rest 409 or an identical replay", async () => {
    const headers = { "idempotency-key": "concurrent-50" };
    const results = await Promise.all(Array.from({ length: 50 }, () => call("POST", INVOKE, quote("50.00"), headers)));
    const ok = results.filter((r) => r.status === 200);
    const conflicts = results.filter((r) => r.status === 409);
    expect(ok.length + conflicts.length).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.text)).size).toBe(1);
    for (const c of conflicts) expect(c.json.code).toBe("IDEMPOTENCY_IN_PROGRESS");
    expect(await invocationsOf("50.00")).toBe(1);
    const after = await call("POST", INVOKE, quote("50.00"), headers);
    expect(after.text).toBe(ok[0]?.text);
    expect(after.headers.get("idempotent-replayed")).toBe("true");
  });

  it("20 concurrent replays of a completed key are all answered with the stored bytes (none turned away as in progress)", async () => {
    const headers = { "idempotency-key": "replayed-20" };
    const first = await call("POST", INVOKE, quote("50.50"), headers);
    expect(first.status).toBe(200);
    const replays = await Promise.all(Array.from({ length: 20 }, () => call("POST", INVOKE, quote("50.50"), headers)));
    for (const replay of replays) {
      expect(replay.status, replay.text).toBe(200);
      expect(replay.text).toBe(first.text);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    }
    expect(await invocationsOf("50.50")).toBe(1);
  });

  it("replays byte for byte, and accepts the key as an IETF structured-field string", async () => {
    const first = await call("POST", INVOKE, quote("51.00"), { "idempotency-key": "sf-key-1" });
    const quoted = await call("POST", INVOKE, quote("51.00"), { "idempotency-key": '"sf-key-1"' });
    expect(first.status).toBe(200);
    expect(quoted.status).toBe(200);
    expect(quoted.text).toBe(first.text);
    expect(quoted.headers.get("idempotent-replayed")).toBe("true");
    expect(await invocationsOf("51.00")).toBe(1);
  });

  it("422 IDEMPOTENCY_KEY_REUSED for another body, another path, or another method", async () => {
    const headers = { "idempotency-key": "reuse-1" };
    expect((await call("POST", INVOKE, quote("52.00"), headers)).status).toBe(200);
    const otherBody = await call("POST", INVOKE, quote("52.01"), headers);
    expect(otherBody.status).toBe(422);
    expect(otherBody.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const otherPath = await call("POST", "/api/v2/agent/providers/select", { category: "fx" }, headers);
    expect(otherPath.status).toBe(422);
    expect(await invocationsOf("52.01")).toBe(0);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["non-ASCII", "clé"],
    ["unbalanced quote", '"abc'],
  ])("rejects a malformed key (%s) with 400 and does nothing", async (_name, key) => {
    const res = await call("POST", INVOKE, quote("53.00"), { "idempotency-key": key });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("VALIDATION_ERROR");
    expect(await invocationsOf("53.00")).toBe(0);
  });

  it("accepts a 255-character key", async () => {
    const res = await call("POST", INVOKE, quote("54.00"), { "idempotency-key": "k".repeat(255) });
    expect(res.status).toBe(200);
  });

  it("stores error outcomes too: the replay of a 404 is the same 404", async () => {
    const headers = { "idempotency-key": "error-1" };
    const body = { ...quote("55.00"), selectionReceiptId: "psr_missing" };
    const first = await call("POST", INVOKE, body, headers);
    const second = await call("POST", INVOKE, body, headers);
    expect(first.status).toBe(404);
    expect(second.status).toBe(404);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a crashed request's key is freed after its lock expires; a live lock answers 409", async () => {
    const base = {
      organizationId: "org_test",
      apiKeyId,
      method: "POST",
      path: INVOKE,
      state: "in_progress",
      lockToken: "crashed",
      fingerprint: "",
    };
    const { fingerprintRequest } = await import("../../server/idempotency/idempotency-key.ts");
    const fingerprint = fingerprintRequest("POST", INVOKE, quote("56.00"));
    const future = new Date(Date.now() + 3_600_000);
    await server.db.prisma.idempotencyRecord.create({
      data: { ...base, id: "idem_live", key: "live-lock", fingerprint, lockedUntil: future, expiresAt: future },
    });
    await server.db.prisma.idempotencyRecord.create({
      data: { ...base, id: "idem_dead", key: "dead-lock", fingerprint, lockedUntil: new Date(Date.now() - 1000), expiresAt: future },
    });
    const live = await call("POST", INVOKE, quote("56.00"), { "idempotency-key": "live-lock" });
    expect(live.status).toBe(409);
    expect(live.json.code).toBe("IDEMPOTENCY_IN_PROGRESS");
    const retried = await call("POST", INVOKE, quote("56.00"), { "idempotency-key": "dead-lock" });
    expect(retried.status).toBe(200);
    expect(await invocationsOf("56.00")).toBe(1);
    const replay = await call("POST", INVOKE, quote("56.00"), { "idempotency-key": "dead-lock" });
    expect(replay.text).toBe(retried.text);
  });

  it("expired records are purged and their keys can be used again", async () => {
    const headers = { "idempotency-key": "expiring-1" };
    await call("POST", INVOKE, quote("57.00"), headers);
    await server.db.prisma.idempotencyRecord.updateMany({ where: { key: "expiring-1" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const { purgeExpiredIdempotencyRecords } = await import("../../server/idempotency/idempotency-store.ts");
    const purged = await purgeExpiredIdempotencyRecords(server.db.kysely);
    expect(purged.rows).toBeGreaterThanOrEqual(1);
    expect(await server.db.prisma.idempotencyRecord.count({ where: { key: "expiring-1" } })).toBe(0);
    const again = await call("POST", INVOKE, quote("57.00"), headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await invocationsOf("57.00")).toBe(2);
  });

  it("503 IDEMPOTENCY_UNAVAILABLE with no side effect when the store fails", async () => {
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecord" RENAME TO "IdempotencyRecord_down"`);
    try {
      const res = await call("POST", INVOKE, quote("58.00"), { "idempotency-key": "store-down" });
      expect(res.status).toBe(503);
      expect(res.json.code).toBe("IDEMPOTENCY_UNAVAILABLE");
      expect(res.headers.get("retry-after")).not.toBeNull();
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecord_down" RENAME TO "IdempotencyRecord"`);
    }
    expect(await invocationsOf("58.00")).toBe(0);
    const recovered = await call("POST", INVOKE, quote("58.00"), { "idempotency-key": "store-down" });
    expect(recovered.status).toBe(200);
  });
});
