// Focused regressions for the bugs the schema-driven fuzz run (fuzz.test.ts) found, one per bug.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { type Call, cardPath, createProgramme, issueCard } from "../helpers/cards.ts";
import { ResponseJudge } from "../helpers/fuzz-checks.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, idem } from "../helpers/v2.ts";

const ORG = "org_fuzz_regressions";
const judge = new ResponseJudge(loadSpec());
let server: TestServer;
let call: Call;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES })).key);
});
afterAll(() => server?.close());

describe("400s the contract did not declare", () => {
  // The server answered 400 VALIDATION_ERROR, which neither operation listed (a client generated from the spec had no
  // type for it). Both now declare it; the judge checks the code against the spec's list for that status.
  it("GET contracts/templates with a query parameter → 400 VALIDATION_ERROR, declared", async () => {
    const res = await call("GET", "/api/v2/agent/contracts/templates?foo=bar");
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code: "VALIDATION_ERROR", errors: [{ path: "/query/foo" }] });
    expect([...(judge.declaredCodes("GET", "/api/v2/agent/contracts/templates", 400) ?? [])]).toContain("VALIDATION_ERROR");
  });

  // Dispatch then refused stray input with 400, which the description does not list for it ("401 and 500 only"). It
  // takes no input, so it now ignores a query string or a body, and the contract declares no 400 for it.
  it.each([
    ["a query parameter", "?x=1", undefined],
    ["a body that is not JSON", "", "garbage"],
    ["an oversized JSON body", "", JSON.stringify({ pad: "x".repeat(110 * 1024) })],
  ])("POST corridor/workflows/dispatch with %s → ignored, 200", async (_name, query, body) => {
    const scheduler = api(server.url);
    const res = await scheduler("POST", `/api/v2/agent/payments/corridor/workflows/dispatch${query}`, body, {
      "x-scheduler-secret": "test-scheduler-secret",
    });
    expect(res.status, res.text).toBe(200);
    expect(judge.declaredCodes("POST", "/api/v2/agent/payments/corridor/workflows/dispatch", 400)).toBeUndefined();
  });
});

describe("a card request refused for the card's state records no compliance decision", () => {
  // Unfreezing, funding and limit changes screen the cardholder first; on a deactivated card the request was then refused with 409,
  // but the screening decisions and their activity event had already been written.
  async function deactivatedCard(): Promise<string> {
    const cardId = await issueCard(call, await createProgramme(call));
    const res = await call("POST", cardPath(cardId, "/deactivate"), {}, idem());
    expect(res.status, res.text).toBe(200);
    return cardId;
  }

  const counts = async () => ({
    decisions: await server.db.prisma.complianceDecision.count({ where: { organizationId: ORG } }),
    events: await server.db.prisma.activityEvent.count({ where: { organizationId: ORG } }),
  });

  it.each([
    ["unfreeze", {}],
    ["fund", { amount: "10.00", asset: "USDC" }],
    ["limits", { limits: { perAuthorization: "50.00" } }],
  ])("%s a deactivated card → 409 CARD_RECORD_CONFLICT and nothing recorded", async (action, body) => {
    const cardId = await deactivatedCard();
    const before = await counts();
    const res = await call("POST", cardPath(cardId, `/${action}`), body, idem());
    expect(res.status, res.text).toBe(409);
    expect(res.json.code).toBe("CARD_RECORD_CONFLICT");
    expect(await counts()).toEqual(before);
  });

  it("unfreezing a frozen card still screens (and records the decision)", async () => {
    const cardId = await issueCard(call, await createProgramme(call));
    expect((await call("POST", cardPath(cardId, "/freeze"), {}, idem())).status).toBe(200);
    const before = await counts();
    const res = await call("POST", cardPath(cardId, "/unfreeze"), {}, idem());
    expect(res.status, res.text).toBe(200);
    expect((await counts()).decisions).toBeGreaterThan(before.decisions);
  });
});

describe("provider operations are looked up as own properties only", () => {
  // `operation: "constructor"` (the only Object.prototype member the operation pattern admits) found
  // Object.prototype.constructor in the adapter's operation table, passed the "known operation" check and crashed the
  // input validation: 500 instead of 404.
  it('providers/invoke and providers/select with operation "constructor" → 404 NOT_FOUND', async () => {
    const invoke = await call(
      "POST",
      "/api/v2/agent/providers/invoke",
      { providerSlug: "simulator", category: "fx", operation: "constructor", input: {} },
      idem(),
    );
    expect(invoke.status, invoke.text).toBe(404);
    expect(invoke.json.code).toBe("NOT_FOUND");
    const body = { providerSlug: "simulator", category: "fx", operation: "constructor" };
    const select = await call("POST", "/api/v2/agent/providers/select", body, idem());
    expect(select.status, select.text).toBe(404);
    expect(select.json.code).toBe("NOT_FOUND");
  });
});
