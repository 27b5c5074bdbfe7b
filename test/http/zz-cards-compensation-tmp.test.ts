import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizationsPath, authorize, CARDS, type Call, capturePath, cardholderBody, cardPath, cardTableCounts, checkLedgerInvariants,
  createProgramme, fundedCard, issueCard, programmeBody, reversePath,
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

describe("provider failure leaves nothing", () => {
  it("every write", async () => {
    const programmeId = await createProgramme(call);
    const cardId = await fundedCard(call, "100.00");
    const frozen = await fundedCard(call, "100.00");
    await call("POST", cardPath(frozen, "/freeze"), {}, idem());
    const { authorizationId } = await authorize(call, cardId, "50.00");
    const jit = await issueCard(call, await createProgramme(call, { fundingModel: "just_in_time" }));
    const jitAuth = await authorize(call, jit, "50.00");
    const reqs: Array<[string, unknown]> = [
      [`${CARDS}/programmes`, programmeBody()],
      [`${CARDS}/issue`, { programmeId, cardholder: cardholderBody() }],
      [cardPath(cardId, "/fund"), { amount: "1.00", asset: "USDC" }],
      [cardPath(cardId, "/freeze"), { reason: "x" }],
      [cardPath(frozen, "/unfreeze"), {}],
      [cardPath(cardId, "/deactivate"), {}],
      [cardPath(cardId, "/limits"), { limits: { daily: "1.00" } }],
      [authorizationsPath(cardId), { amount: "1.00" }],
      [authorizationsPath(jit), { amount: "1.00" }],
      [capturePath(cardId, authorizationId), { amount: "10.00" }],
      [capturePath(cardId, authorizationId), {}],
      [reversePath(cardId, authorizationId), {}],
      [reversePath(jit, jitAuth.authorizationId), { amount: "5.00" }],
    ];
    for (const failure of ["PROVIDER_EXECUTION_FAILED", "PROVIDER_RATE_LIMITED"]) {
      for (const [path, body] of reqs) {
        const before = await cardTableCounts(server);
        const cards = await server.db.prisma.card.findMany({ orderBy: { id: "asc" } });
        const auths = await server.db.prisma.cardAuthorization.findMany({ orderBy: { id: "asc" } });
        const txs = await server.db.prisma.cardTransaction.findMany({ orderBy: { id: "asc" } });
        const res = await call("POST", path, body, { ...idem(), "sandbox-simulate-error": failure });
        expect(res.json.code, path).toBe(failure);
        expect(await cardTableCounts(server), path).toEqual(before);
        expect(await server.db.prisma.card.findMany({ orderBy: { id: "asc" } }), path).toEqual(cards);
        expect(await server.db.prisma.cardAuthorization.findMany({ orderBy: { id: "asc" } }), path).toEqual(auths);
        expect(await server.db.prisma.cardTransaction.findMany({ orderBy: { id: "asc" } }), path).toEqual(txs);
      }
    }
    await checkLedgerInvariants(server);
    const ok = await call("POST", capturePath(cardId, authorizationId), {}, idem());
    expect(ok.status, ok.text).toBe(200);
    const list = await call("GET", cardPath(cardId, "/transactions"));
    expect(list.json.data.map((t: { status: string }) => t.status)).not.toContain("pending");
    expect((await server.db.prisma.cardProgramme.findMany({ where: { status: { not: "active" } } })).length).toBe(0);
    expect((await server.db.prisma.card.findMany({ where: { status: "pending" } })).length).toBe(0);
  });
});
describe("unconfirmed credits are not spendable", () => {
  it("pending funding", async () => {
    const cardId = await fundedCard(call, "10.00");
    const card = await server.db.prisma.card.findUniqueOrThrow({ where: { id: cardId } });
    const base = { organizationId: "org_test", environment: "sandbox", asset: "USDC" };
    await server.db.prisma.cardTransaction.create({ data: { id: "ctx_tmp1", ...base, cardId, type: "funding", status: "pending", amountMinor: "100000000" } });
    await server.db.prisma.cardLedgerEntry.createMany({ data: [
      { id: "cle_tmp1", ...base, journalId: "ctx_tmp1", kind: "funding", programmeId: card.programmeId, cardId, account: `programme:${card.programmeId}:funding`, direction: "debit", amountMinor: "100000000" },
      { id: "cle_tmp2", ...base, journalId: "ctx_tmp1", kind: "funding", programmeId: card.programmeId, cardId, account: `card:${cardId}:available`, direction: "credit", amountMinor: "100000000" },
    ] });
    expect((await authorize(call, cardId, "50.00")).declineReason).toBe("insufficient_funds");
    expect((await authorize(call, cardId, "10.00")).approved).toBe(true);
    await server.db.prisma.cardTransaction.update({ where: { id: "ctx_tmp1" }, data: { status: "posted" } });
    expect((await authorize(call, cardId, "50.00")).approved).toBe(true);
  });
});
