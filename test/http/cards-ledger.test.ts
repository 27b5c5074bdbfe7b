// The card ledger under concurrency and failure: no lost update, balances derived from balanced entries and never
// negative, exactly one effect per idempotent request, retries on transient conflicts, nothing half-written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizationsPath,
  type Call,
  cardPath,
  cardTableCounts,
  checkLedgerInvariants,
  createProgramme,
  fund,
  fundedCard,
  issueCard,
  usdc,
  withFailingWrites,
} from "../helpers/cards.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

let server: TestServer;
let call: Call;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ scopes: ["cards:write"] })).key);
});
afterAll(() => server?.close());

describe("50 concurrent fundings and authorizations against one card", () => {
  it("loses no update, never goes negative, and gives each idempotent request exactly one effect", async () => {
    const cardId = await fundedCard(call, "10.00");
    // 15 fundings of 1.00 and 15 authorizations of 2.00 with their own keys, plus 5 funding keys and 5 authorization
    // keys each sent twice at once: 50 requests, 20 distinct fundings and 20 distinct authorizations.
    type Req = { kind: "fund" | "auth"; key: string };
    const requests: Req[] = [];
    for (let i = 0; i < 15; i++) requests.push({ kind: "fund", key: `fund-${i}` }, { kind: "auth", key: `auth-${i}` });
    for (let i = 0; i < 5; i++) requests.push({ kind: "fund", key: `fund-dup-${i}` }, { kind: "fund", key: `fund-dup-${i}` });
    for (let i = 0; i < 5; i++) requests.push({ kind: "auth", key: `auth-dup-${i}` }, { kind: "auth", key: `auth-dup-${i}` });
    expect(requests).toHaveLength(50);
    const send = ({ kind, key }: Req) =>
      kind === "fund"
        ? call("POST", cardPath(cardId, "/fund"), { amount: "1.00", asset: "USDC" }, { "idempotency-key": key })
        : call("POST", authorizationsPath(cardId), { amount: "2.00" }, { "idempotency-key": key });
    const results = await Promise.all(requests.map(send));

    const byKey = new Map<string, Array<(typeof results)[number]>>();
    results.forEach((res, i) => {
      const key = requests[i]!.key;
      byKey.set(key, [...(byKey.get(key) ?? []), res]);
    });
    for (const [key, responses] of byKey) {
      const ok = responses.filter((r) => r.status === 200 || r.status === 201);
      for (const r of responses.filter((r) => r.status !== 200 && r.status !== 201)) {
        expect(`${key} ${r.status} ${r.json?.code}`).toBe(`${key} 409 IDEMPOTENCY_IN_PROGRESS`);
      }
      expect(ok.length, key).toBeGreaterThanOrEqual(1);
      expect(new Set(ok.map((r) => r.text)).size, key).toBe(1);
    }
    // Replays after the storm: each key answers its first response, byte for byte.
    for (const [key, responses] of byKey) {
      const req = requests.find((r) => r.key === key)!;
      const replay = await send(req);
      expect(replay.headers.get("idempotent-replayed"), key).toBe("true");
      const ok = responses.find((r) => r.status === 200 || r.status === 201);
      expect(replay.text, key).toBe(ok?.text);
    }

    const fundings = await server.db.prisma.cardTransaction.findMany({ where: { cardId, type: "funding" } });
    const authorizations = await server.db.prisma.cardAuthorization.findMany({ where: { cardId } });
    expect(fundings).toHaveLength(1 + 20); // the initial 10.00, then one per distinct key
    expect(authorizations).toHaveLength(20);
    // Each key's stored response names exactly one transaction, and each transaction belongs to exactly one key.
    const namedFundings = new Set(
      [...byKey].filter(([k]) => k.startsWith("fund")).map(([, r]) => r.find((x) => x.status === 200)?.json.transactionId),
    );
    const namedAuthorizations = new Set(
      [...byKey].filter(([k]) => k.startsWith("auth")).map(([, r]) => r.find((x) => x.status === 201)?.json.authorizationId),
    );
    expect(namedFundings.size).toBe(20);
    expect(namedAuthorizations.size).toBe(20);
    for (const id of namedFundings) expect(fundings.some((f) => f.id === id)).toBe(true);
    for (const id of namedAuthorizations) expect(authorizations.some((a) => a.id === id)).toBe(true);

    const approved = authorizations.filter((a) => a.status === "pending").length;
    const declined = authorizations.filter((a) => a.status === "declined");
    expect(approved + declined.length).toBe(20);
    for (const d of declined) expect(d.declineReason).toBe("insufficient_funds");
    // 10.00 + 20 × 1.00 = 30.00 funded; each approved authorization holds 2.00. The first 10.00 covers 5 whatever the
    // order; 30.00 covers at most 15.
    expect(approved).toBeGreaterThanOrEqual(5);
    expect(approved).toBeLessThanOrEqual(15);
    const accounts = await checkLedgerInvariants(server);
    const available = accounts.get(`org_test/sandbox/card:${cardId}:available`) ?? 0n;
    const pending = accounts.get(`org_test/sandbox/card:${cardId}:pending`) ?? 0n;
    expect(available).toBe(usdc("30.00") - BigInt(approved) * usdc("2.00"));
    expect(pending).toBe(BigInt(approved) * usdc("2.00"));
    expect(available >= 0n).toBe(true);
    const card = await call("GET", cardPath(cardId));
    expect(card.json.balance).toEqual({
      available: (Number(available) / 1e6).toFixed(2),
      pending: (Number(pending) / 1e6).toFixed(2),
      ledger: "30.00",
      asset: "USDC",
    });
  });

  it("concurrent fundings of many cards of one programme never overdraw its funding account", async () => {
    const programmeId = await createProgramme(call);
    const cards = await Promise.all([1, 2, 3].map(() => issueCard(call, programmeId)));
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call("POST", cardPath(cards[i % 3]!, "/fund"), { amount: "10000.00", asset: "USDC" }, idem())),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(10);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.json.code).toBe("CARD_INSUFFICIENT_FUNDS");
    const accounts = await checkLedgerInvariants(server);
    expect(accounts.get(`org_test/sandbox/programme:${programmeId}:funding`)).toBe(0n);
  });
});

describe("write failures leave nothing half-written", () => {
  it("500 CARD_LEDGER_WRITE_FAILED when the ledger entries cannot be inserted (the funding transaction rolls back too)", async () => {
    const cardId = await fundedCard(call, "10.00");
    const before = await cardTableCounts(server);
    const headers = idem();
    const res = await withFailingWrites(server, { table: "CardLedgerEntry", on: "INSERT" }, () =>
      call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, headers),
    );
    expect(res.status, res.text).toBe(500);
    expect(res.json).toMatchObject({ code: "CARD_LEDGER_WRITE_FAILED", status: 500 });
    expect(res.text).not.toMatch(/simulated write failure|CardLedgerEntry/);
    expect(await cardTableCounts(server)).toEqual(before);
    expect((await call("GET", cardPath(cardId))).json.balance.available).toBe("10.00");
    // The outcome is the key's final answer; a new key succeeds once the ledger accepts writes.
    const replay = await call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, headers);
    expect(replay.text).toBe(res.text);
    expect((await fund(call, cardId, "5.00")).card.balance.available).toBe("15.00");
  });

  it("500 CARD_LEDGER_WRITE_FAILED when the ledger table is gone (renamed, then restored)", async () => {
    const cardId = await fundedCard(call, "10.00");
    const before = await cardTableCounts(server);
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "CardLedgerEntry" RENAME TO "CardLedgerEntry_gone"`);
    let res: Awaited<ReturnType<Call>>;
    try {
      res = await call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, idem());
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "CardLedgerEntry_gone" RENAME TO "CardLedgerEntry"`);
    }
    expect(res.status, res.text).toBe(500);
    expect(res.json.code).toBe("CARD_LEDGER_WRITE_FAILED");
    expect(await cardTableCounts(server)).toEqual(before);
  });

  it("500 CARD_RECORD_WRITE_FAILED on fund when the card record cannot be updated: no entry, no transaction", async () => {
    const cardId = await fundedCard(call, "10.00");
    const before = await cardTableCounts(server);
    const res = await withFailingWrites(server, { table: "Card", on: "UPDATE" }, () =>
      call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, idem()),
    );
    expect(res.status, res.text).toBe(500);
    expect(res.json.code).toBe("CARD_RECORD_WRITE_FAILED");
    expect(await cardTableCounts(server)).toEqual(before);
  });
});

describe("transient conflicts", () => {
  it("retries a serialization failure and answers with exactly one effect", async () => {
    const cardId = await fundedCard(call, "10.00");
    const before = await cardTableCounts(server);
    const res = await withFailingWrites(server, { table: "CardLedgerEntry", on: "INSERT", sqlstate: "40001", times: 2 }, () =>
      call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, idem()),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.card.balance.available).toBe("15.00");
    const after = await cardTableCounts(server);
    expect(after.transactions - before.transactions).toBe(1);
    expect(after.entries - before.entries).toBe(2);
  });

  it.each([
    ["a serialization failure", "40001"],
    ["a deadlock", "40P01"],
    ["a lock timeout", "55P03"],
  ])("409 CARD_LEDGER_CONFLICT when %s persists through every retry; nothing written", async (_name, sqlstate) => {
    const cardId = await fundedCard(call, "10.00");
    const before = await cardTableCounts(server);
    const fundRes = await withFailingWrites(server, { table: "CardLedgerEntry", on: "INSERT", sqlstate }, () =>
      call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, idem()),
    );
    expect(fundRes.status, fundRes.text).toBe(409);
    expect(fundRes.json.code).toBe("CARD_LEDGER_CONFLICT");
    const authRes = await withFailingWrites(server, { table: "CardLedgerEntry", on: "INSERT", sqlstate }, () =>
      call("POST", authorizationsPath(cardId), { amount: "5.00" }, idem()),
    );
    expect(authRes.status, authRes.text).toBe(409);
    expect(authRes.json.code).toBe("CARD_LEDGER_CONFLICT");
    expect(await cardTableCounts(server)).toEqual(before);
  });

  it("409 CARD_RECORD_CONFLICT when a record-only write stays in conflict", async () => {
    const cardId = await fundedCard(call, "10.00");
    const res = await withFailingWrites(server, { table: "Card", on: "UPDATE", sqlstate: "40001" }, () =>
      call("POST", cardPath(cardId, "/freeze"), {}, idem()),
    );
    expect(res.status, res.text).toBe(409);
    expect(res.json.code).toBe("CARD_RECORD_CONFLICT");
    expect((await call("GET", cardPath(cardId))).json.status).toBe("active");
  });
});
