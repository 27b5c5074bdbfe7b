// Screening fails closed in production until a reviewed compliance_screening connection exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connectProductionSimulator, insertConnectionRow } from "../helpers/v2.ts";

let server: TestServer;
let prod: ReturnType<typeof api>;
const body = { addresses: [{ role: "destination", address: "0x27b1fdb04752bbc536007a920d24acb045561c26" }] };

beforeAll(async () => {
  server = await startTestServer();
  prod = api(
    server.url,
    (await server.createKey({ organizationId: "org_prod", environment: "production", scopes: ["compliance:write"] })).key,
  );
});
afterAll(() => server?.close());

describe("screening in production", () => {
  it.each(["/api/v2/agent/compliance/screen", "/api/v2/agent/policy/evaluate"])(
    "%s answers 424 without a reviewed connection, writing nothing",
    async (path) => {
      const res = await prod("POST", path, body);
      expect(res.status).toBe(424);
      expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
      expect(await server.db.prisma.complianceDecision.count({ where: { organizationId: "org_prod" } })).toBe(0);
    },
  );

  // The simulator is the only compliance_screening adapter, and a simulator never serves production: the admin API
  // refuses it, and a production simulator row from before that rule serves nothing.
  it("stays 424 in production: the screening simulator cannot be connected, and an old simulator row is ignored", async () => {
    const refused = await connectProductionSimulator(server, "org_prod", "compliance_screening");
    expect(refused.status).toBe(400);
    expect(refused.json.errors?.[0]?.path).toBe("/body/providerSlug");
    await insertConnectionRow(server, { organizationId: "org_prod", environment: "production", category: "compliance_screening" });
    const res = await prod("POST", "/api/v2/agent/compliance/screen", body);
    expect(res.status).toBe(424);
    expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
  });
});
