// Cards end to end on the sandbox simulator: programmes, issuing, reads, funding, the state machine, limits, the
// authorization test helpers and the transaction list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorize,
  CARDS,
  type Call,
  capturePath,
  cardholderBody,
  cardPath,
  checkLedgerInvariants,
  createProgramme,
  fund,
  fundedCard,
  issueCard,
  programmeBody,
  reversePath,
  usdc,
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

describe("programmes", () => {
  it("creates an active, simulated programme and credits its funding account with the sandbox test funds", async () => {
    const body = programmeBody({ fundingAsset: "DAI", fundingModel: "just_in_time", network: "mastercard" });
    const res = await call("POST", `${CARDS}/programmes`, body, idem());
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ ...body, status: "active", simulated: true });
    expect(res.json.programmeId).toMatch(/^cprg_/);
    const entries = await server.db.prisma.cardLedgerEntry.findMany({ where: { journalId: res.json.programmeId } });
    expect(entries.map((e) => [e.account, e.direction, e.amountMinor.toFixed(0)]).sort()).toEqual([
      [`programme:${res.json.programmeId}:funding`, "credit", `100000${"0".repeat(18)}`],
      ["sandbox_test_funds", "debit", `100000${"0".repeat(18)}`],
    ]);
    expect(
      await server.db.prisma.activityEvent.count({ where: { type: "card_programme.created", resourceId: res.json.programmeId } }),
    ).toBe(1);
  });
});

describe("issuing and reading a card", () => {
  it("issues an active card with last4 and expiry, never a card number or CVC, and reads it back", async () => {
    const programmeId = await createProgramme(call);
    const limits = { perAuthorization: "100.00", daily: "200.00", monthly: "1000.00", blockedCategories: ["7995"] };
    const res = await call("POST", `${CARDS}/issue`, { programmeId, cardholder: cardholderBody(), limits }, idem());
    expect(res.status, res.text).toBe(201);
    const card = res.json;
    expect(card).toMatchObject({
      programmeId,
      status: "active",
      statusReason: null,
      brand: "visa",
      limits,
      balance: { available: "0.00", pending: "0.00", ledger: "0.00", asset: "USDC" },
      simulated: true,
    });
    expect(card.last4).toMatch(/^[0-9]{4}$/);
    expect(card.expYear).toBe(new Date().getUTCFullYear() + 3);
    expect(card.expMonth).toBeGreaterThanOrEqual(1);
    expect(card.cardholderId).toMatch(/^chd_/);
    // Member names, not values: a random id may spell "CVC" (card_…OqCVCrk… did).
    expect(JSON.stringify(res.json, (k, v) => (k === "" || typeof v === "object" ? v : null))).not.toMatch(/pan|cvc|cvv|number/i);
    expect(res.text).not.toMatch(/[0-9]{12,19}/);
    const row = await server.db.prisma.card.findUniqueOrThrow({ where: { id: card.cardId } });
    expect(Object.keys(row)).not.toEqual(expect.arrayContaining(["pan"]));
    // The issuer's reference is 16 hex digits of a digest, which spell 12 decimal digits in a row about once in 50 cards
    // (sim_card_60f683274723130d did): its shape is checked, and the digit run is looked for in every other column.
    expect(row.providerReference).toMatch(/^sim_card_[0-9a-f]{16}$/);
    const columns = JSON.stringify(row, (k, v) => (k === "providerReference" ? undefined : typeof v === "bigint" ? v.toString() : v));
    expect(columns).not.toMatch(/[0-9]{12,19}/);

    const read = await call("GET", cardPath(card.cardId));
    expect(read.status).toBe(200);
    expect(read.json).toEqual(card);

    const second = await call("POST", `${CARDS}/issue`, { programmeId, cardholderId: card.cardholderId }, idem());
    expect(second.status, second.text).toBe(201);
    expect(second.json.cardholderId).toBe(card.cardholderId);
    expect(second.json.limits).toEqual({});
  });

  it("with only programmeId issues a card with no cardholder, which does what any card does", async () => {
    const programmeId = await createProgramme(call);
    const res = await call("POST", `${CARDS}/issue`, { programmeId }, idem());
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ programmeId, cardholderId: null, status: "active", limits: {}, simulated: true });
    const cardId = res.json.cardId as string;
    expect((await server.db.prisma.card.findUniqueOrThrow({ where: { id: cardId } })).cardholderId).toBeNull();
    expect((await call("GET", cardPath(cardId))).json).toEqual(res.json);

    await fund(call, cardId, "50.00");
    const limits = await call("POST", cardPath(cardId, "/limits"), { limits: { perAuthorization: "20.00" } }, idem());
    expect(limits.status, limits.text).toBe(200);
    const held = await authorize(call, cardId, "12.00");
    expect(held.status).toBe("pending");
    expect((await call("POST", capturePath(cardId, held.authorizationId), {}, idem())).status).toBe(200);
    expect((await call("POST", cardPath(cardId, "/freeze"), { reason: "Lost" }, idem())).json.status).toBe("frozen");
    expect((await call("POST", cardPath(cardId, "/unfreeze"), {}, idem())).json.status).toBe("active");
    const read = await call("GET", cardPath(cardId));
    expect(read.json).toMatchObject({ cardholderId: null, balance: { available: "38.00", pending: "0.00", ledger: "38.00" } });
    expect((await call("GET", cardPath(cardId, "/transactions"))).status).toBe(200);
    expect((await call("POST", cardPath(cardId, "/deactivate"), {}, idem())).json.status).toBe("deactivated");
    await checkLedgerInvariants(server);
  });

  it("refuses both cardholderId and cardholder with 400 VALIDATION_ERROR", async () => {
    const programmeId = await createProgramme(call);
    const res = await call(
      "POST",
      `${CARDS}/issue`,
      { programmeId, cardholderId: "chd_9Wm4Rt2Zx8Kp6Nc1Hv3Bq", cardholder: cardholderBody() },
      idem(),
    );
    expect(res.status, res.text).toBe(400);
    expect(res.json.code).toBe("VALIDATION_ERROR");
  });

  it("a cards:read key reads cards but cannot write them", async () => {
    const reader = api(server.url, (await server.createKey({ scopes: ["cards:read"] })).key);
    const cardId = await issueCard(call, await createProgramme(call));
    expect((await reader("GET", cardPath(cardId))).status).toBe(200);
    expect((await reader("GET", cardPath(cardId, "/transactions"))).status).toBe(200);
    const write = await reader("POST", cardPath(cardId, "/freeze"), {}, idem());
    expect(write.status).toBe(403);
    expect(write.json.code).toBe("FORBIDDEN");
  });
});

describe("funding", () => {
  it("credits the card through one balanced posting, lists a funding transaction, and records card.funded", async () => {
    const cardId = await issueCard(call, await createProgramme(call));
    const result = await fund(call, cardId, "250.00");
    expect(result).toMatchObject({
      card: { cardId, balance: { available: "250.00", pending: "0.00", ledger: "250.00" } },
      simulated: true,
    });
    const entries = await server.db.prisma.cardLedgerEntry.findMany({ where: { journalId: result.transactionId } });
    expect(entries).toHaveLength(2);
    expect(entries.find((e) => e.id === result.ledgerEntryId)).toMatchObject({ account: `card:${cardId}:available`, direction: "credit" });
    expect(entries.find((e) => e.direction === "debit")?.account).toMatch(/^programme:cprg_.*:funding$/);
    const event = await server.db.prisma.activityEvent.findFirstOrThrow({
      where: { type: "card.funded", resourceId: result.transactionId },
    });
    expect(event.amountUsd?.toFixed(2)).toBe("250.00");
    const list = await call("GET", cardPath(cardId, "/transactions"));
    expect(list.json.data).toEqual([
      expect.objectContaining({ transactionId: result.transactionId, type: "funding", status: "posted", amount: "250.00", merchant: null }),
    ]);
    await fund(call, cardId, "0.000001");
    expect((await call("GET", cardPath(cardId))).json.balance.available).toBe("250.000001");
    await checkLedgerInvariants(server);
  });

  it("a frozen card can be funded", async () => {
    const cardId = await issueCard(call, await createProgramme(call));
    expect((await call("POST", cardPath(cardId, "/freeze"), {}, idem())).status).toBe(200);
    expect((await fund(call, cardId, "10.00")).card).toMatchObject({ status: "frozen", balance: { available: "10.00" } });
  });

  it("replays an idempotent fund without a second effect", async () => {
    const cardId = await issueCard(call, await createProgramme(call));
    const headers = idem();
    const first = await call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, headers);
    const again = await call("POST", cardPath(cardId, "/fund"), { amount: "5.00", asset: "USDC" }, headers);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await call("GET", cardPath(cardId))).json.balance.available).toBe("5.00");
  });
});

describe("state machine: active ⇄ frozen → deactivated", () => {
  const transitions: Array<[string, string[], number, string]> = [
    ["freeze an active card", ["freeze"], 200, "frozen"],
    ["unfreeze a frozen card", ["freeze", "unfreeze"], 200, "active"],
    ["deactivate an active card", ["deactivate"], 200, "deactivated"],
    ["deactivate a frozen card", ["freeze", "deactivate"], 200, "deactivated"],
    ["freeze a frozen card", ["freeze", "freeze"], 409, "frozen"],
    ["unfreeze an active card", ["unfreeze"], 409, "active"],
    ["unfreeze a deactivated card", ["deactivate", "unfreeze"], 409, "deactivated"],
    ["freeze a deactivated card", ["deactivate", "freeze"], 409, "deactivated"],
    ["deactivate a deactivated card", ["deactivate", "deactivate"], 409, "deactivated"],
  ];
  it.each(transitions)("%s", async (_name, actions, status, finalStatus) => {
    const cardId = await issueCard(call, await createProgramme(call));
    let res: Awaited<ReturnType<Call>> | undefined;
    for (const action of actions) res = await call("POST", cardPath(cardId, `/${action}`), { reason: `because ${action}` }, idem());
    expect(res?.status, res?.text).toBe(status);
    if (status === 409) expect(res?.json.code).toBe("CARD_RECORD_CONFLICT");
    else expect(res?.json).toMatchObject({ status: finalStatus, statusReason: `because ${actions.at(-1)}`, simulated: true });
    expect((await call("GET", cardPath(cardId))).json.status).toBe(finalStatus);
  });

  it("a deactivated card accepts no fund and no limit change, but stays readable", async () => {
    const cardId = await fundedCard(call, "20.00");
    await call("POST", cardPath(cardId, "/deactivate"), {}, idem());
    for (const [path, body] of [
      ["/fund", { amount: "1.00", asset: "USDC" }],
      ["/limits", { limits: {} }],
    ] as const) {
      const res = await call("POST", cardPath(cardId, path), body, idem());
      expect(res.status).toBe(409);
      expect(res.json.code).toBe("CARD_RECORD_CONFLICT");
    }
    expect((await call("GET", cardPath(cardId))).json).toMatchObject({ status: "deactivated", balance: { available: "20.00" } });
  });
});

describe("authorizations (sandbox test helpers)", () => {
  it("approves within funds and limits: a hold moves to pending; capture settles; the list shows everything newest first", async () => {
    const cardId = await fundedCard(call, "100.00");
    const auth = await authorize(call, cardId, "42.17", {
      name: "Corner Grocery",
      categoryCode: "5411",
      city: "San Francisco",
      country: "US",
    });
    expect(auth).toMatchObject({
      status: "pending",
      approved: true,
      declineReason: null,
      amount: "42.17",
      pendingAmount: "42.17",
      balance: { available: "57.83", pending: "42.17", ledger: "100.00" },
      merchant: { name: "Corner Grocery", categoryCode: "5411", city: "San Francisco", country: "US" },
      simulated: true,
    });
    expect(auth.transactions).toEqual([
      expect.objectContaining({ type: "authorization", status: "pending", authorizationId: auth.authorizationId }),
    ]);

    const captured = await call("POST", capturePath(cardId, auth.authorizationId), { amount: "40.00" }, idem());
    expect(captured.status, captured.text).toBe(200);
    expect(captured.json).toMatchObject({
      status: "closed",
      pendingAmount: "0.00",
      capturedAmount: "40.00",
      reversedAmount: "2.17",
      balance: { available: "60.00", pending: "0.00", ledger: "60.00" },
    });
    expect(captured.json.transactions.map((t: { type: string; amount: string }) => [t.type, t.amount])).toEqual([
      ["capture", "40.00"],
      ["reversal", "2.17"],
    ]);
    const list = await call("GET", cardPath(cardId, "/transactions"));
    expect(list.json.data.map((t: { type: string; status: string }) => `${t.type}:${t.status}`)).toEqual([
      "reversal:posted",
      "capture:posted",
      "authorization:closed",
      "funding:posted",
    ]);
    const again = await call("POST", capturePath(cardId, auth.authorizationId), {}, idem());
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("CARD_RECORD_CONFLICT");
    await checkLedgerInvariants(server);
  });

  it("reverses partially then fully", async () => {
    const cardId = await fundedCard(call, "50.00");
    const auth = await authorize(call, cardId, "30.00");
    expect(auth.merchant).toEqual({ name: "Sandbox Merchant", categoryCode: "5999" });
    const partial = await call("POST", reversePath(cardId, auth.authorizationId), { amount: "10.00" }, idem());
    expect(partial.json).toMatchObject({
      status: "pending",
      pendingAmount: "20.00",
      reversedAmount: "10.00",
      balance: { available: "30.00", pending: "20.00" },
    });
    const tooMuch = await call("POST", reversePath(cardId, auth.authorizationId), { amount: "20.01" }, idem());
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.json.code).toBe("CARD_REQUEST_REJECTED");
    const rest = await call("POST", reversePath(cardId, auth.authorizationId), {}, idem());
    expect(rest.json).toMatchObject({
      status: "closed",
      pendingAmount: "0.00",
      reversedAmount: "30.00",
      balance: { available: "50.00", pending: "0.00" },
    });
  });

  const declines: Array<[string, Record<string, unknown>, string[], string, string, Record<string, unknown>?]> = [
    ["a frozen card", {}, ["freeze"], "10.00", "card_frozen"],
    ["a deactivated card", {}, ["deactivate"], "10.00", "card_deactivated"],
    [
      "a blocked merchant category",
      { limits: { blockedCategories: ["7995"] } },
      [],
      "10.00",
      "merchant_category_blocked",
      { name: "Casino", categoryCode: "7995" },
    ],
    ["a category outside the allowed ones", { limits: { allowedCategories: ["5411"] } }, [], "10.00", "merchant_category_not_allowed"],
    [
      "blocked wins over allowed",
      { limits: { allowedCategories: ["7995"], blockedCategories: ["7995"] } },
      [],
      "10.00",
      "merchant_category_blocked",
      { name: "Casino", categoryCode: "7995" },
    ],
    ["above the per-authorization limit", { limits: { perAuthorization: "9.99" } }, [], "10.00", "limit_per_authorization"],
    ["above the daily limit", { limits: { daily: "15.00" } }, ["auth:10.00"], "5.01", "limit_daily"],
    ["above the monthly limit", { limits: { monthly: "15.00" } }, ["auth:10.00"], "5.01", "limit_monthly"],
    ["above the available balance", {}, [], "100.01", "insufficient_funds"],
  ];
  it.each(declines)("records a decline on %s (201, no balance effect)", async (_name, extra, setup, amount, reason, merchant) => {
    const cardId = await fundedCard(call, "100.00", extra);
    for (const step of setup) {
      if (step.startsWith("auth:")) await authorize(call, cardId, step.slice(5));
      else await call("POST", cardPath(cardId, `/${step}`), {}, idem());
    }
    const before = (await call("GET", cardPath(cardId))).json.balance;
    const res = await call(
      "POST",
      `${cardPath(cardId)}/test-helpers/authorizations`,
      { amount, ...(merchant ? { merchant } : {}) },
      idem(),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ status: "declined", approved: false, declineReason: reason, pendingAmount: "0.00", balance: before });
    expect(res.json.transactions).toEqual([expect.objectContaining({ type: "authorization", status: "declined", declineReason: reason })]);
    expect(await server.db.prisma.cardLedgerEntry.count({ where: { journalId: res.json.transactions[0].transactionId } })).toBe(0);
    const capture = await call("POST", capturePath(cardId, res.json.authorizationId), {}, idem());
    expect(capture.status).toBe(409);
  });

  it("limits take effect on the next authorization; reversed amounts free the daily window", async () => {
    const cardId = await fundedCard(call, "100.00");
    await authorize(call, cardId, "30.00");
    const limits = await call("POST", cardPath(cardId, "/limits"), { limits: { daily: "40.00" } }, idem());
    expect(limits.status, limits.text).toBe(200);
    expect(limits.json.limits).toEqual({ daily: "40.00" });
    const declined = await authorize(call, cardId, "10.01");
    expect(declined.declineReason).toBe("limit_daily");
    const first = (await server.db.prisma.cardAuthorization.findFirstOrThrow({ where: { cardId, status: "pending" } })).id;
    await call("POST", reversePath(cardId, first), { amount: "5.00" }, idem());
    expect((await authorize(call, cardId, "15.00")).approved).toBe(true);
    await call("POST", cardPath(cardId, "/limits"), { limits: {} }, idem());
    expect((await authorize(call, cardId, "40.00")).approved).toBe(true);
  });

  it("holds placed before a freeze or deactivation can still be captured", async () => {
    const cardId = await fundedCard(call, "20.00");
    const auth = await authorize(call, cardId, "20.00");
    await call("POST", cardPath(cardId, "/deactivate"), {}, idem());
    const captured = await call("POST", capturePath(cardId, auth.authorizationId), {}, idem());
    expect(captured.status).toBe(200);
    expect(captured.json.balance).toEqual({ available: "0.00", pending: "0.00", ledger: "0.00", asset: "USDC" });
  });

  it("just-in-time programmes: no card balance; authorizations draw on the programme's funding account", async () => {
    const programmeId = await createProgramme(call, { fundingModel: "just_in_time" });
    const cardId = await issueCard(call, programmeId);
    const rejected = await call("POST", cardPath(cardId, "/fund"), { amount: "1.00", asset: "USDC" }, idem());
    expect(rejected.status).toBe(422);
    expect(rejected.json.code).toBe("CARD_REQUEST_REJECTED");
    const auth = await authorize(call, cardId, "75.00");
    expect(auth).toMatchObject({ approved: true, balance: { available: "0.00", pending: "75.00", ledger: "75.00" } });
    await call("POST", reversePath(cardId, auth.authorizationId), { amount: "25.00" }, idem());
    await call("POST", capturePath(cardId, auth.authorizationId), {}, idem());
    const accounts = await checkLedgerInvariants(server);
    expect(accounts.get(`org_test/sandbox/programme:${programmeId}:funding`)).toBe(usdc("100000") - usdc("50.00"));
    expect((await authorize(call, cardId, "99950.01")).declineReason).toBe("insufficient_funds");
    expect((await authorize(call, cardId, "99950.00")).approved).toBe(true);
  });
});

describe("transaction list pagination", () => {
  it("pages newest first with limit + startingAfter until hasMore is false", async () => {
    const cardId = await fundedCard(call, "100.00");
    for (const amount of ["1.00", "2.00", "3.00", "4.00"]) await authorize(call, cardId, amount);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&startingAfter=${cursor}` : "?limit=2";
      const page = await call("GET", `${cardPath(cardId, "/transactions")}${query}`);
      expect(page.status, page.text).toBe(200);
      expect(page.json.simulated).toBe(true);
      seen.push(...page.json.data.map((t: { amount: string }) => t.amount));
      cursor = page.json.nextCursor;
      expect(page.json.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(["4.00", "3.00", "2.00", "1.00", "100.00"]);
    const other = await fundedCard(call, "1.00");
    const foreign = (await call("GET", cardPath(other, "/transactions"))).json.data[0].transactionId;
    const bad = await call("GET", `${cardPath(cardId, "/transactions")}?startingAfter=${foreign}`);
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe("VALIDATION_ERROR");
  });
});

describe("organization isolation", () => {
  it("another organization's card is 404 on every card endpoint", async () => {
    const cardId = await fundedCard(call, "10.00");
    const auth = await authorize(call, cardId, "1.00");
    const other = api(server.url, (await server.createKey({ organizationId: "org_other", scopes: ["cards:write"] })).key);
    for (const [method, path, body] of [
      ["GET", cardPath(cardId), undefined],
      ["GET", cardPath(cardId, "/transactions"), undefined],
      ["POST", cardPath(cardId, "/fund"), { amount: "1.00", asset: "USDC" }],
      ["POST", cardPath(cardId, "/freeze"), {}],
      ["POST", cardPath(cardId, "/limits"), { limits: {} }],
      ["POST", `${cardPath(cardId)}/test-helpers/authorizations`, { amount: "1.00" }],
      ["POST", capturePath(cardId, auth.authorizationId), {}],
    ] as const) {
      const res = await other(method, path, body, method === "POST" ? idem() : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.code).toBe("NOT_FOUND");
    }
  });
});
