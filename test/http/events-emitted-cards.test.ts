// Events of card programmes, cards and card authorizations (issue 16): emitted where the issuer confirmed the change
// (the write's second transaction), once each, with the resource as answered (for cards: as GET cards/{id} answers it
// right after); a change the issuer refuses, or a refused transition, emits nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorize, CARDS, capturePath, cardPath, createProgramme, fund, issueCard, programmeBody, reversePath } from "../helpers/cards.ts";
import { eventsOf, eventTypesOf, expectOneEvent } from "../helpers/events.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_evt_cards";
let server: TestServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["cards:write"] })).key);
});
afterAll(() => server?.close());

const getCard = async (cardId: string) => {
  const res = await call("GET", cardPath(cardId));
  expect(res.status, res.text).toBe(200);
  return res.json;
};
const post = async (path: string, body: unknown, status = 200) => {
  const res = await call("POST", path, body, idem());
  expect(res.status, res.text).toBe(status);
  return res.json;
};

describe("card events", () => {
  it("card_programme.created with the programme as created", async () => {
    const created = await post(`${CARDS}/programmes`, programmeBody(), 201);
    await expectOneEvent(server, "card_programme.created", created.programmeId, created, { simulated: true, organizationId: ORG });
  });

  it("issued, funded, frozen, unfrozen, limits_updated, deactivated: once each, data = GET card at that moment", async () => {
    const cardId = await issueCard(call, await createProgramme(call));
    await expectOneEvent(server, "card.issued", cardId, await getCard(cardId), { simulated: true });
    const funded = await fund(call, cardId, "100.00");
    expect(await getCard(cardId)).toEqual(funded.card);
    await expectOneEvent(server, "card.funded", cardId, funded.card);
    const steps: Array<[string, unknown, string]> = [
      ["/freeze", {}, "card.frozen"],
      ["/unfreeze", {}, "card.unfrozen"],
      ["/limits", { limits: { perAuthorization: "50.00" } }, "card.limits_updated"],
      ["/deactivate", {}, "card.deactivated"],
    ];
    for (const [path, body, type] of steps) {
      const answered = await post(cardPath(cardId, path), body);
      expect(await getCard(cardId)).toEqual(answered);
      await expectOneEvent(server, type, cardId, answered);
    }
    // A transition that cannot happen (409) emits nothing.
    expect((await call("POST", cardPath(cardId, "/freeze"), {}, idem())).status).toBe(409);
    expect(await eventTypesOf(server, cardId)).toEqual(["card.issued", "card.funded", ...steps.map(([, , type]) => type)]);
  });

  it("an issuer refusal (simulated failure) compensates the change and emits nothing", async () => {
    const cardId = await issueCard(call, await createProgramme(call));
    const before = await eventTypesOf(server, cardId);
    const res = await call("POST", cardPath(cardId, "/freeze"), {}, { ...idem(), "sandbox-simulate-error": "CARD_REQUEST_REJECTED" });
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect((await getCard(cardId)).status).toBe("active");
    expect(await eventTypesOf(server, cardId)).toEqual(before);
  });

  it("authorizations: approved, declined, captured, reversed — once each with the authorization as answered", async () => {
    const cardId = await issueCard(call, await createProgramme(call));
    await fund(call, cardId, "100.00");
    const approved = await authorize(call, cardId, "30.00");
    expect(approved.approved).toBe(true);
    await expectOneEvent(server, "card.authorization.approved", approved.authorizationId, approved, { simulated: true });
    const declined = await authorize(call, cardId, "1000.00");
    expect(declined.approved).toBe(false);
    await expectOneEvent(server, "card.authorization.declined", declined.authorizationId, declined);
    const captured = await post(capturePath(cardId, approved.authorizationId), { amount: "10.00" });
    await expectOneEvent(server, "card.authorization.captured", approved.authorizationId, captured);
    const other = await authorize(call, cardId, "20.00");
    const reversed = await post(reversePath(cardId, other.authorizationId), {});
    await expectOneEvent(server, "card.authorization.reversed", other.authorizationId, reversed);
    // Capturing a closed authorization is refused (409): nothing more.
    expect((await call("POST", capturePath(cardId, approved.authorizationId), {}, idem())).status).toBe(409);
    expect(await eventsOf(server, approved.authorizationId)).toHaveLength(2);
  });
});
