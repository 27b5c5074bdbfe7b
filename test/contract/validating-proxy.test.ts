// Acceptance check of issue 17: a validating proxy in front of the server, replaying a request set that reaches every
// operation with valid and invalid input — each operation's example request, the fuzz generator's coverage pass (every
// operation × every mutation that fits it: bad credentials, missing and malformed Idempotency-Key, unknown query
// parameters, malformed and oversized bodies, wrong media types, wrong methods, schema violations…) and exhausted
// budgets (429) — finds no undeclared status, no undeclared or missing required header and no body off its schema.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { createSender } from "../helpers/fuzz-http.ts";
import { type FuzzRequest, generateFuzzRequests } from "../helpers/fuzz-requests.ts";
import { formatFinding, ResponseContract } from "../helpers/response-contract.ts";
import { exampleRequest, specOperations } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect } from "../helpers/v2.ts";
import { startValidatingProxy, type ValidatingProxy } from "../helpers/validating-proxy.ts";

const ORG = "org_proxy";
const SEED = 17;
const doc = loadSpec();
const contract = new ResponseContract(doc);

let server: TestServer;
let limited: TestServer;
let proxy: ValidatingProxy;
let limitedProxy: ValidatingProxy;
let keys: { sandbox: string; production: string };

beforeAll(async () => {
  // The proxy judges from outside, so the server's own in-process check is off: findings reach the proxy unaltered.
  server = await startTestServer({ checkContract: false });
  // Tiny budgets, for the 429s of both budgets (the key's and the address's failed authentications).
  limited = await startTestServer({ checkContract: false, env: { RATE_LIMIT_PER_KEY: "2", RATE_LIMIT_AUTH_FAILURES: "2" } });
  keys = {
    sandbox: (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES, actor: "proxy" })).key,
    production: (await server.createKey({ organizationId: ORG, environment: "production", scopes: ALL_WRITE_SCOPES })).key,
  };
  for (const category of ["bank_transfer", "custody", "card_issuance", "token_issuance", "chain_read", "compliance_screening", "fx"])
    await connect(server, { organizationId: ORG, category });
  proxy = await startValidatingProxy(server.url, contract);
  limitedProxy = await startValidatingProxy(limited.url, contract);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await limitedProxy?.close();
  await server?.close();
  await limited?.close();
});

function exampleRequests(): FuzzRequest[] {
  return specOperations(doc).map((op, index) => {
    const request = exampleRequest(doc, op, ORG);
    const credential =
      op.operation.security === "apiKey"
        ? "sandbox"
        : op.operation.security === "adminToken"
          ? "admin"
          : op.operation.security === "schedulerSecret"
            ? "scheduler"
            : "none";
    const headers: Array<[string, string]> = Object.entries(request.headers);
    if (request.body !== undefined) headers.push(["content-type", "application/json"]);
    return {
      index,
      operationId: op.operation.operationId,
      mutation: "example",
      detail: "the operation's documented example",
      method: request.method,
      path: request.path,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      credential,
    };
  });
}

async function replay(target: ValidatingProxy, requests: FuzzRequest[], credentials: typeof keys & { admin: string; scheduler: string }) {
  const sender = createSender(target.url, credentials, 8);
  try {
    for (let start = 0; start < requests.length; start += 8)
      await Promise.all(requests.slice(start, start + 8).map((request) => sender.send(request)));
  } finally {
    sender.close();
  }
}

describe("validating proxy over every operation", () => {
  it("finds no undeclared status, header or body", async () => {
    const credentials = { ...keys, admin: server.adminToken, scheduler: "test-scheduler-secret" };
    // The fuzz generator's coverage pass (every operation × every mutation that fits it) comes first; 1200 holds it.
    const fuzz = generateFuzzRequests({ seed: SEED, count: 1200, fixtures: { organizationId: ORG, adminOrganizationId: `${ORG}_admin` } });
    const requests = [...exampleRequests(), ...fuzz];
    await replay(proxy, requests, credentials);

    // 429s: the key's budget (2 per window) and the address's failed authentications (2 per window).
    const limitedKey = (await limited.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES })).key;
    const call = api(limitedProxy.url, limitedKey);
    const anonymous = api(limitedProxy.url);
    for (let i = 0; i < 3; i++) {
      await call("GET", "/api/v1/wallets");
      await call("GET", "/api/v2/agent/events");
      await anonymous("GET", "/api/v1/wallets");
      await anonymous("GET", "/api/metric/payments.volume");
      await anonymous("POST", "/api/v2/agent/payments/corridor/workflows/dispatch");
    }

    const findings = [...proxy.findings, ...limitedProxy.findings];
    expect([...new Set(findings.map(formatFinding))].slice(0, 40)).toEqual([]);
    // The replay was meaningful: every operation answered, with errors as well as successes.
    const operations = specOperations(doc).map((op) => op.operation.operationId);
    expect(operations.filter((id) => !proxy.statuses.has(id))).toEqual([]);
    const all = [...proxy.statuses.values(), ...limitedProxy.statuses.values()].flatMap((s) => [...s]);
    for (const status of [200, 201, 400, 401, 403, 404, 413, 415, 429]) expect(all, `status ${status} seen`).toContain(status);
    console.info(
      `validating proxy: ${proxy.checked() + limitedProxy.checked()} responses checked, statuses ${[...new Set(all)].sort().join(", ")}`,
    );
  }, 300_000);

  it("reports a breach it sees (a stub answering 418 with an undeclared header)", async () => {
    const stub = http.createServer((_req, res) => {
      res.writeHead(418, { "content-type": "application/json", "x-debug": "1" });
      res.end("{}");
    });
    stub.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => stub.once("listening", () => resolve()));
    const watching = await startValidatingProxy(`http://127.0.0.1:${(stub.address() as AddressInfo).port}`, contract);
    try {
      expect((await api(watching.url)("GET", "/api/v1/wallets")).status).toBe(418);
      expect(watching.findings.map((f) => f.problem)).toEqual([expect.stringMatching(/^status 418 is not declared/)]);
    } finally {
      await watching.close();
      await new Promise<void>((resolve) => stub.close(() => resolve()));
    }
  });
});
