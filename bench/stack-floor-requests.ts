// What the stack floor (bench/stack-floor.ts) is sent and answers: the hot-path scenarios' own requests (headers and
// bodies, a fresh Idempotency-Key each where the scenario sends one), each with the round trips that request sends,
// and the answers Coinplane gave to them, recorded once before the floor starts. `npm run bench` measures it beside the
// database floor; `npm run bench:profile` profiles it stage by stage.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Request } from "autocannon";
import type { Scenario } from "./scenarios.ts";

export interface StackFloorScenario {
  id: `stack_${Scenario["id"]}`;
  name: string;
  requests: Request[];
}

export interface StackFloorSetup {
  /** The environment bench/stack-floor.ts starts with (DATABASE_URL apart). */
  env: Record<string, string>;
  scenarios: StackFloorScenario[];
  /** Removes the recorded answers. */
  cleanup(): void;
}

/** The hot-path requests the stack floor answers, with the round trips each sends (test/db/statement-budget.test.ts). */
const STACK_FLOOR: { id: Scenario["id"]; roundTrips: 1 | 3; replay?: true }[] = [
  { id: "wallet_get", roundTrips: 1 },
  { id: "payment_post_keyed", roundTrips: 1 },
  { id: "v2_write", roundTrips: 3 },
  { id: "v2_replay", roundTrips: 1, replay: true },
];

/** A scenario's request as autocannon sends it (its setupRequest applied). */
function firstRequest(scenario: Scenario): Request {
  const request = scenario.requests[0] as Request;
  return typeof request.setupRequest === "function" ? request.setupRequest(request, {}) : request;
}

/** Coinplane's answer to one request of `scenario`. */
async function recordAnswer(coinplaneUrl: string, scenario: Scenario) {
  const request = firstRequest(scenario);
  const res = await fetch(`${coinplaneUrl}${request.path}`, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body as string | undefined,
  });
  if (res.status >= 300) throw new Error(`stack floor: recording ${scenario.id} answered ${res.status}`);
  return { status: res.status, body: await res.json() };
}

/** The scenario's requests, each telling the stack floor how many round trips to send and whether it is a replay. */
function withRoundTrips(scenario: Scenario, roundTrips: number, replay: boolean): Request[] {
  const said = { "x-floor-round-trips": String(roundTrips), ...(replay ? { "x-floor-replay": "1" } : {}) };
  const tell = (request: Request): Request => ({ ...request, headers: { ...(request.headers as Record<string, string>), ...said } });
  return scenario.requests.map((request) => {
    const { setupRequest } = request;
    return typeof setupRequest === "function"
      ? { ...request, setupRequest: (r: Request, context: object) => tell(setupRequest(r, context)) }
      : tell(request);
  });
}

/** Records Coinplane's answers (`coinplaneUrl` must be up, with `scenarios` prepared on it) and builds the floor's load. */
export async function prepareStackFloor(coinplaneUrl: string, scenarios: Scenario[]): Promise<StackFloorSetup> {
  const byId = (id: Scenario["id"]) => {
    const found = scenarios.find((s) => s.id === id);
    if (!found) throw new Error(`stack floor: no ${id} scenario`);
    return found;
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), "coinplane-stack-floor-"));
  const answersFile = path.join(dir, "answers.json");
  writeFileSync(
    answersFile,
    JSON.stringify({
      payment: await recordAnswer(coinplaneUrl, byId("payment_post_keyed")),
      bankTransfer: await recordAnswer(coinplaneUrl, byId("v2_replay")),
    }),
  );
  const walletId = firstRequest(byId("wallet_get")).path?.split("/").pop() ?? "";
  return {
    env: { WALLET_ID: walletId, STACK_FLOOR_ANSWERS: answersFile },
    scenarios: STACK_FLOOR.map(({ id, roundTrips, replay }) => {
      const scenario = byId(id);
      return {
        id: `stack_${id}`,
        name: `${scenario.name}: Express 5 + express-openapi-validator + ${roundTrips} round trip${roundTrips === 1 ? "" : "s"}, nothing else`,
        requests: withRoundTrips(scenario, roundTrips, replay === true),
      };
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
