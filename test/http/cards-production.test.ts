// Production keys: every card endpoint fails closed with 424 PROVIDER_NOT_CONNECTED until a reviewed card_issuance
// connection exists. The card issuing simulator is the only card issuer adapter and a simulator never serves production
// (its results say `simulated: true`): the admin API refuses to connect it, and an old production simulator row is
// ignored, so production cards stay closed until a live issuer adapter exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { CARDS, type Call, programmeBody } from "../helpers/cards.ts";
import { exampleRequest, specOperations } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, connectProductionSimulator, idem, insertConnectionRow } from "../helpers/v2.ts";

const doc = loadSpec();
const cardOperations = specOperations(doc).filter((op) => op.operation.pathTemplate.startsWith("/api/v2/agent/cards"));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe("production key without a reviewed card issuer connection", () => {
  it("the spec lists the 14 card operations", () => {
    expect(cardOperations.map((op) => op.operation.operationId).sort()).toEqual(
      [
        "captureCardAuthorization",
        "createCardProgramme",
        "deactivateCard",
        "freezeCard",
        "fundCard",
        "getCard",
        "issueCard",
        "listCardProgrammes",
        "listCardTransactions",
        "listCards",
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
      await insertConnectionRow(server, { organizationId: org, environment: "production", category: "card_issuance", reviewed: false });
      await connect(server, { organizationId: org, environment: "sandbox", category: "card_issuance", reviewed: true });
      const request = exampleRequest(doc, op, org);
      const res = await call(request.method, request.path, request.body, request.headers);
      expect(res.status, res.text).toBe(424);
      expect(res.json).toMatchObject({ code: "PROVIDER_NOT_CONNECTED", status: 424 });
      expect(await server.db.prisma.cardProgramme.count({ where: { organizationId: org } })).toBe(0);
    },
  );
});

describe("production key and the card issuing simulator", () => {
  const org = "org_prod_simulator";
  let call: Call;

  beforeAll(async () => {
    call = api(server.url, (await server.createKey({ organizationId: org, environment: "production", scopes: ["cards:write"] })).key);
  });

  it("the admin API refuses to connect the simulator for production, naming /body/providerSlug", async () => {
    const refused = await connectProductionSimulator(server, org, "card_issuance");
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: "invalid_request", errors: [{ path: "/body/providerSlug" }] });
    expect(await server.db.prisma.providerConnection.count({ where: { organizationId: org } })).toBe(0);
  });

  it("a reviewed production simulator row from before that rule serves nothing: still 424, nothing simulated", async () => {
    await insertConnectionRow(server, { organizationId: org, environment: "production", category: "card_issuance" });
    await insertConnectionRow(server, { organizationId: org, environment: "production", category: "compliance_screening" });
    const programme = await call("POST", `${CARDS}/programmes`, programmeBody(), idem());
    expect(programme.status, programme.text).toBe(424);
    expect(programme.json.code).toBe("PROVIDER_NOT_CONNECTED");
    expect(await server.db.prisma.cardProgramme.count({ where: { organizationId: org } })).toBe(0);
  });
});
