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
  /** Throws unless the contract floor at `floorUrl` answers each request with Coinplane's status, header names and body
   * length (the per-request values, such as the request id, differ by design). */
  checkSameAnswers(floorUrl: string): Promise<void>;
  /** Removes the recorded answers. */
  cleanup(): void;
}

/** A stack floor scenario's id for the contract floor (the same request, the contract's steps added). */
export const contractFloorId = (id: StackFloorScenario["id"]) => id.replace(/^stack_/, "contract_") as `contract_${Scenario["id"]}`;

/** The hot-path requests the stack floor answers, with the round trips each sends (test/db/statement-budget.test.ts). */
const STACK_FLOOR = [
  { id: "wallet_get", roundTrips: 1, answer: "walletGet" },
  { id: "payment_post_keyed", roundTrips: 1, answer: "payment" },
  { id: "v2_write", roundTrips: 3, answer: "bankTransfer" },
  { id: "v2_replay", roundTrips: 1, replay: true, answer: "bankTransferReplay" },
] as const satisfies readonly { id: Scenario["id"]; roundTrips: 1 | 3; replay?: true; answer: string }[];

/** A scenario's request as autocannon sends it (its setupRequest applied). */
function firstRequest(scenario: Scenario): Request {
  const request = scenario.requests[0] as Request;
  return typeof request.setupRequest === "function" ? request.setupRequest(request, {}) : request;
}

/** The answer to `request` at `url`. */
async function answerTo(url: string, request: Request) {
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body as string | undefined,
  });
  return { status: res.status, text: await res.text(), headers: [...res.headers] };
}

/** Coinplane's answer to one request of `scenario`. */
async function recordAnswer(coinplaneUrl: string, scenario: Scenario) {
  const { status, text, headers } = await answerTo(coinplaneUrl, firstRequest(scenario));
  if (status >= 300) throw new Error(`stack floor: recording ${scenario.id} answered ${status}`);
  // The header block as it came, for the contract floor (bench/contract-floor-steps.ts).
  return { status, body: JSON.parse(text) as unknown, headers, length: Buffer.byteLength(text) };
}

/** What of an answer the contract floor must repeat: its status, header names and body length. */
const shapeOf = (a: { status: number; headers: [string, string][]; length: number }) =>
  `${a.status} ${a.headers.map(([name]) => name).join(",")} ${a.length} bytes`;

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
  const recorded = {
    walletGet: await recordAnswer(coinplaneUrl, byId("wallet_get")),
    payment: await recordAnswer(coinplaneUrl, byId("payment_post_keyed")),
    bankTransfer: await recordAnswer(coinplaneUrl, byId("v2_write")),
    bankTransferReplay: await recordAnswer(coinplaneUrl, byId("v2_replay")),
  };
  writeFileSync(answersFile, JSON.stringify(recorded));
  const floorScenarios = STACK_FLOOR.map((floor) => ({
    recorded: recorded[floor.answer],
    scenario: byId(floor.id),
    requests: withRoundTrips(byId(floor.id), floor.roundTrips, "replay" in floor),
    roundTrips: floor.roundTrips,
  }));
  const walletId = firstRequest(byId("wallet_get")).path?.split("/").pop() ?? "";
  return {
    env: { WALLET_ID: walletId, STACK_FLOOR_ANSWERS: answersFile },
    scenarios: floorScenarios.map(({ scenario, requests, roundTrips }) => ({
      id: `stack_${scenario.id}`,
      name: `${scenario.name}: Express 5 + express-openapi-validator + ${roundTrips} round trip${roundTrips === 1 ? "" : "s"}, nothing else`,
      requests,
    })),
    async checkSameAnswers(floorUrl) {
      for (const { scenario, requests, recorded: coinplane } of floorScenarios) {
        const floor = await answerTo(floorUrl, firstRequest({ ...scenario, requests }));
        const [want, got] = [shapeOf(coinplane), shapeOf({ ...floor, length: Buffer.byteLength(floor.text) })];
        if (want !== got) throw new Error(`contract floor: ${scenario.id} answered ${got}; Coinplane answered ${want}`);
      }
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
