// Events of the contract lifecycle (issue 16): contract.created at generation, contract.<stage past tense> for each
// stage, contract.stage_failed for a failed run (kept although the request's work rolled back); each once, with the
// project as GET contracts/{projectId} answers it right after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNER, TREASURY } from "../helpers/contracts.ts";
import { eventTypesOf, expectOneEvent } from "../helpers/events.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_evt_contracts";
const BASE = "/api/v2/agent/contracts";

let server: TestServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["projects:write"] })).key);
});
afterAll(() => server?.close());

const project = async (projectId: string) => {
  const res = await call("GET", `${BASE}/${projectId}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
};

describe("contract lifecycle events", () => {
  it("generate → … → launch: one event per stage, data = the project as GET answers it; a failed compile → contract.stage_failed", async () => {
    const generated = await call("POST", `${BASE}/generate`, { asset: "EVTUSD", network: "sandbox" }, idem());
    expect(generated.status, generated.text).toBe(201);
    const projectId = generated.json.projectId as string;
    await expectOneEvent(server, "contract.created", projectId, await project(projectId));

    // A failed run: 422, the work rolled back, the failed run and its event stay.
    const source = (await project(projectId)).source as string;
    const broken = await call("POST", `${BASE}/${projectId}/compile`, { source: source.replace("contract ", "contrakt ") }, idem());
    expect(broken.status, broken.text).toBe(422);
    const failedView = await project(projectId);
    expect(failedView.stages[1]).toMatchObject({ name: "compile", status: "failed" });
    await expectOneEvent(server, "contract.stage_failed", projectId, failedView);

    const stages: Array<[string, string, unknown?]> = [
      ["compile", "contract.compiled"],
      ["validate", "contract.validated"],
      ["simulate", "contract.simulated"],
      ["deploy", "contract.deployed", { signers: [SIGNER], initialSupply: { to: TREASURY, amountMinor: "1000000" } }],
      ["verify", "contract.verified"],
      ["launch", "contract.launched"],
    ];
    for (const [stage, type, body] of stages) {
      const res = await call("POST", `${BASE}/${projectId}/${stage}`, body, idem());
      expect(res.status, `${stage}: ${res.text}`).toBe(200);
      const onChain = ["deploy", "verify", "launch"].includes(stage);
      await expectOneEvent(server, type, projectId, await project(projectId), onChain ? { simulated: true } : { simulated: null });
    }
    // A stage that cannot run (409) emits nothing.
    expect((await call("POST", `${BASE}/${projectId}/launch`, undefined, idem())).status).toBe(409);
    expect(await eventTypesOf(server, projectId)).toEqual(["contract.created", "contract.stage_failed", ...stages.map(([, type]) => type)]);
  }, 120_000);
});
