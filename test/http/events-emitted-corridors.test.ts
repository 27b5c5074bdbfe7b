// Events of corridor workflow runs (issue 16): created by corridor/simulate, then started, completed or failed in the
// dispatcher's transaction that moves the run; once each, with the run as GET corridor/workflows/{id} answers it then.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corridor, DISPATCH, RUN, SCHEDULER, SIMULATE } from "../helpers/corridors.ts";
import { eventTypesOf, expectOneEvent } from "../helpers/events.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ORG = "org_evt_corridor";
let server: TestServer;
let call: ReturnType<typeof api>;
let scheduler: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["payments:write", "wallets:write"] })).key);
  scheduler = api(server.url);
});
afterAll(() => server?.close());

async function simulate(overrides: Record<string, unknown> = {}) {
  const res = await call("POST", SIMULATE, corridor(overrides), idem());
  expect(res.status, res.text).toBe(202);
  return res.json;
}
async function dispatch() {
  const res = await scheduler("POST", DISPATCH, undefined, SCHEDULER);
  expect(res.status, res.text).toBe(200);
  return res.json.dispatched as { workflowRunId: string; status: string }[];
}
const getRun = async (id: string) => {
  const res = await call("GET", RUN(id));
  expect(res.status, res.text).toBe(200);
  return res.json;
};
async function runToEnd(id: string) {
  for (let i = 0; i < 10; i++) if ((await dispatch()).every((d) => d.workflowRunId !== id)) return;
}

describe("workflow run events", () => {
  it("created → started (first step) → completed, each = GET at that moment", async () => {
    const created = await simulate();
    expect(await getRun(created.workflowRunId)).toEqual(created);
    await expectOneEvent(server, "workflow_run.created", created.workflowRunId, created, { simulated: true });
    await dispatch();
    const running = await getRun(created.workflowRunId);
    expect(running.status).toBe("running");
    await expectOneEvent(server, "workflow_run.started", created.workflowRunId, running, { simulated: true });
    await runToEnd(created.workflowRunId);
    const completed = await getRun(created.workflowRunId);
    expect(completed.status).toBe("completed");
    await expectOneEvent(server, "workflow_run.completed", created.workflowRunId, completed);
    expect(await eventTypesOf(server, created.workflowRunId)).toEqual([
      "workflow_run.created",
      "workflow_run.started",
      "workflow_run.completed",
    ]);
  });

  it("a step failing permanently (amount 13.13) → workflow_run.failed with the skipped steps", async () => {
    const created = await simulate({ amount: "13.13" });
    await runToEnd(created.workflowRunId);
    const failed = await getRun(created.workflowRunId);
    expect(failed.status).toBe("failed");
    await expectOneEvent(server, "workflow_run.failed", created.workflowRunId, failed);
    expect(await eventTypesOf(server, created.workflowRunId)).toEqual([
      "workflow_run.created",
      "workflow_run.started",
      "workflow_run.failed",
    ]);
  });

  it("plan_only: created completed at once → workflow_run.created and workflow_run.completed, nothing dispatched", async () => {
    const created = await simulate({ executionMode: "plan_only" });
    expect(created.status).toBe("completed");
    await expectOneEvent(server, "workflow_run.created", created.workflowRunId, created);
    await expectOneEvent(server, "workflow_run.completed", created.workflowRunId, await getRun(created.workflowRunId));
  });

  it("concurrent dispatchers: one event per transition of the run", async () => {
    const created = await simulate();
    for (let i = 0; i < 6; i++) await Promise.all([dispatch(), dispatch(), dispatch()]);
    const final = await getRun(created.workflowRunId);
    expect(final.status).toBe("completed");
    expect(await eventTypesOf(server, created.workflowRunId)).toEqual([
      "workflow_run.created",
      "workflow_run.started",
      "workflow_run.completed",
    ]);
  });
});
