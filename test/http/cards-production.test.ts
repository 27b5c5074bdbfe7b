// Production keys: every card endpoint fails closed with 424 PROVIDER_NOT_CONNECTED until a reviewed card_issuance
// connection exists; with one (the simulator is the only card issuer adapter) the card endpoints work and still say
// `simulated: true`, while the authorization test helpers stay sandbox-only (403 FORBIDDEN).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { authorizationsPath, CARDS, type Call, cardholderBody, cardPath, programmeBody } from "../helpers/cards.ts";
import { exampleRequest, specOperations } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";

const doc = loadSpec();
const cardOperations = specOperations(doc).filter((op) => op.operation.pathTemplate.startsWith("/api/v2/agent/cards"));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe("production key without a reviewed card issuer connection", () => {
  it("the spec lists the 12 card operations", () => {
    expect(cardOperations.map((op) => op.operation.operationId).sort()).toEqual(
      [
        "captureCardAuthorization",
        "createCardProgramme",
        "deactivateCard",
        "freezeCard",
        "fundCard",
        "getCard",
        "issueCard",
        "listCardTransactions",
        "reverseCardAuthorization",
        "simulateCardAuthorization",
        "unfreezeCard",
        "updateCardLimits",
      ].sort(),
    );
  });

  it.each(cardOperations.map((op) => [`${op.operation.method} ${op.operation.pathTemplate}`, op] as const))(
    "%s answers 424 PROVIDER_NOT_CONNECTED (also with only an unreviewed connection)",
    async (_name, op) => {
      const org = `org_prod_${op.operation.operationId}`;
      const call = api(
        server.url,
        (await server.createKey({ organizationId: org, environment: "production", scopes: ["cards:write"] })).key,
      );
      await connect(server, { organizationId: org, environment: "production", category: "card_issuance", reviewed: false });
      await connect(server, { organizationId: org, environment: "sandbox", category: "card_issuance", reviewed: true });
      const request = exampleRequest(doc, op, org);
      const res = await call(request.method, request.path, request.body, request.headers);
      expect(res.status, res.text).toBe(424);
      expect(res.json).toMatchObject({ code: "PROVIDER_NOT_CONNECTED", status: 424 });
      expect(await server.db.prisma.cardProgramme.count({ where: { organizationId: org } })).toBe(0);
    },
  );
});

describe("production key with a reviewed card issuer connection", () => {
  const org = "org_prod_connected";
  let call: Call;

  beforeAll(async () => {
    call = api(server.url, (await server.createKey({ organizationId: org, environment: "production", scopes: ["cards:write"] })).key);
    await connect(server, { organizationId: org, environment: "production", category: "card_issuance" });
  });

  it("screening still fails closed without a reviewed compliance_screening connection", async () => {
    const res = await call("POST", `${CARDS}/programmes`, programmeBody(), idem());
    expect(res.status).toBe(424);
    expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
  });

  it("serves the card endpoints through the connected simulator (simulated: true); test helpers answer 403", async () => {
    await connect(server, { organizationId: org, environment: "production", category: "compliance_screening" });
    const programme = await call("POST", `${CARDS}/programmes`, programmeBody(), idem());
    expect(programme.status, programme.text).toBe(201);
    expect(programme.json.simulated).toBe(true);
    const connection = await server.db.prisma.providerConnection.findFirstOrThrow({
      where: { organizationId: org, environment: "production", category: "card_issuance" },
    });
    const row = await server.db.prisma.cardProgramme.findUniqueOrThrow({ where: { id: programme.json.programmeId } });
    expect(row).toMatchObject({ connectionId: connection.id, environment: "production", simulated: true });
    const card = await call("POST", `${CARDS}/issue`, { programmeId: programme.json.programmeId, cardholder: cardholderBody() }, idem());
    expect(card.status, card.text).toBe(201);
    const funded = await call("POST", cardPath(card.json.cardId, "/fund"), { amount: "10.00", asset: "USDC" }, idem());
    expect(funded.status, funded.text).toBe(200);
    expect((await call("GET", cardPath(card.json.cardId))).json).toMatchObject({ simulated: true, balance: { available: "10.00" } });
    const helper = await call("POST", authorizationsPath(card.json.cardId), { amount: "1.00" }, idem());
    expect(helper.status).toBe(403);
    expect(helper.json.code).toBe("FORBIDDEN");
    expect(await server.db.prisma.cardAuthorization.count({ where: { organizationId: org } })).toBe(0);
  });
});
