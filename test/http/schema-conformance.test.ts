// The contract says exactly what the server accepts. For every operation of the bundled spec (operations added later
// included: the plan iterates the spec), requests generated from its schemas (json-schema-faker, varied by fast-check,
// each confirmed by ajv) must reach the operation's handler — never a 400 from the request checks — and copies with
// one constraint broken (type, required, enum, pattern, the NUL rule, format, min/max, additionalProperties) must be
// refused with 400 naming the field. One server per database, requests in batches, a bounded number per operation.
// Reproduce or explore: CONFORMANCE_SEED=<seed> npx vitest run --project pglite test/http/schema-conformance.test.ts
// (CONFORMANCE_ALL=1 prints every disagreement, not only the first twelve).
import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { type ConformanceRequest, conformancePlans, type OperationPlan } from "../helpers/conformance-requests.ts";
import { createSender, type FuzzResponse } from "../helpers/fuzz-http.ts";
import { fuzzSeed } from "../helpers/fuzz-random.ts";
import { joinMember } from "../helpers/members.ts";
import { exampleRequest, specOperations } from "../helpers/spec-requests.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect } from "../helpers/v2.ts";

const SEED = fuzzSeed({ FUZZ_SEED: process.env.CONFORMANCE_SEED });
const VALID_PER_OPERATION = 4;
const BROKEN_PER_OPERATION = 10;
const CONCURRENCY = 8;
const ORG = "org_conformance";
const CATEGORIES = ["bank_transfer", "custody", "card_issuance", "token_issuance", "chain_read", "compliance_screening", "fx"];

// Refusals by an operation's own rules that a schema cannot state (a checksum, a rule across members, stored state),
// each documented on the field or in the operation's description. A 400 after the handler was reached must be one of
// these; anything else is a rule the contract should state. (A 400 from the request checks is never excused.)
const OPERATION_RULES: Array<{ operations: RegExp; path: RegExp; message: RegExp; why: string }> = [
  { operations: /./, path: /./, message: /^fails the EIP-55 checksum$/, why: "a mixed-case EVM address carries a checksum" },
  {
    operations: /^createPayment$/,
    path: /^\/body\/toAddress$/,
    message: /^is not a valid \w+ address$/,
    why: "the address form depends on `chain` (EVM or solana), and EVM mixed case carries a checksum",
  },
  {
    operations: /^(createBankTransfer|simulateCorridor)$/,
    path: /^\/body\/(currency|rail|source|destination)(\/|$)/,
    message: /./,
    why: "bank rules across members (rail × account type × country × currency), check digits (ABA, IBAN mod-97), the active ISO 4217 list and the sandbox's FX rates (BankTransferRequest's description)",
  },
  {
    operations: /^simulateCorridor$/,
    path: /^\/body\/(custody\/walletId|destinationAddress)$/,
    message: /./,
    why: "the custody wallet must exist and be active (stored state); the address form depends on the wallet's chain",
  },
  {
    operations: /^list/,
    path: /^\/query\/startingAfter$/,
    message: /^is not an? .* (of|in) this organization and environment$/,
    why: "a cursor must name an item of the list (stored state)",
  },
  {
    operations: /^listIssuanceRequests$/,
    path: /^\/query\/offset$/,
    message: /^cannot be combined with startingAfter/,
    why: "a rule across two query parameters (a non-zero `offset` with a cursor), stated on `offset`'s description",
  },
  {
    operations: /^adminCreateConnection$/,
    path: /^\/body\/providerSlug$/,
    message: /^names no \w+ adapter of this build/,
    why: "the adapters depend on `category` (GET /api/v2/agent/providers lists them)",
  },
];

let server: TestServer;
let sandboxKey: string;
let newOrganizationKey: string;
/** An owner of ORG with a verified second factor: the operations only a member's session may call use it. */
let owner: { cookie: string; origin: string };
let plans: OperationPlan[];
const reached = new Map<string, boolean>();

beforeAll(async () => {
  server = await startTestServer({
    // Every answer is still checked against the contract, by the test's own checker (contract-checked-handler.ts);
    // the validator's response check on top would compile each operation's response schemas again (≈1 s each here).
    env: { VALIDATE_RESPONSES: "false" },
    observe: (req: IncomingMessage, res) => {
      const id = res.getHeader("x-request-id");
      if (typeof id === "string")
        reached.set(id, (req as IncomingMessage & { ctx?: { reachedHandler?: true } }).ctx?.reachedHandler === true);
    },
  });
  sandboxKey = (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES, actor: "conformance" })).key;
  newOrganizationKey = (await server.createKey({ organizationId: `org_new_${Date.now().toString(36)}`, scopes: ALL_WRITE_SCOPES })).key;
  for (const category of CATEGORIES) await connect(server, { organizationId: ORG, category });
  const { cookie, origin } = (await joinMember(server, ORG, { role: "owner", secondFactor: true })).headers() as Record<string, string>;
  owner = { cookie: cookie as string, origin: origin as string };
  plans = conformancePlans({
    doc: loadSpec(),
    seed: SEED,
    validPerOperation: VALID_PER_OPERATION,
    brokenPerOperation: BROKEN_PER_OPERATION,
    fixtures: { organizationId: ORG, adminOrganizationId: `${ORG}_admin` },
  });
}, 120_000);
afterAll(() => server?.close());

interface Outcome {
  request: ConformanceRequest;
  response: FuzzResponse;
}

async function sendAll(all: ConformanceRequest[]): Promise<Outcome[]> {
  let requests = all;
  const sender = createSender(
    server.url,
    { sandbox: sandboxKey, production: sandboxKey, admin: server.adminToken, scheduler: "test-scheduler-secret", session: owner },
    CONCURRENCY,
  );
  // Signing out ends the session every other session operation uses: those requests go last.
  const signsOut = (r: ConformanceRequest) => /^(deleteCurrentSession|deleteAllSessions)$/.test(r.operationId);
  requests = [...requests.filter((r) => !signsOut(r)), ...requests.filter(signsOut)];
  const out: Outcome[] = [];
  try {
    for (let start = 0; start < requests.length; start += CONCURRENCY) {
      const batch = requests.slice(start, start + CONCURRENCY);
      out.push(...(await Promise.all(batch.map(async (request) => ({ request, response: await sender.send(request) })))));
    }
  } finally {
    sender.close();
  }
  return out;
}

const describeOutcome = ({ request, response }: Outcome) =>
  [
    `${request.operationId} ${request.mutation}: ${request.detail}`,
    `${request.method} ${request.path}`,
    request.headers.map(([k, v]) => `  ${k}: ${v}`).join("\n"),
    typeof request.body === "string" && request.body.length > 600 ? `${request.body.slice(0, 600)}…` : String(request.body ?? "(no body)"),
    `→ ${response.status} ${response.text.slice(0, 1500)}`,
    `reproduce: CONFORMANCE_SEED=${SEED} npx vitest run --project pglite test/http/schema-conformance.test.ts`,
  ].join("\n");

interface ErrorBody {
  code?: string;
  errors?: Array<{ path?: string; message?: string }>;
}

/** The answer names the field: an error at its path or below it (an item of an array), or (for a missing or unexpected
 * member) at its parent with the member's name in the message. */
function namesField(body: ErrorBody | undefined, path: string): boolean {
  const last = path.split("/").pop() ?? "";
  const parent = path.slice(0, path.lastIndexOf("/"));
  return (body?.errors ?? []).some(
    (e) => e.path === path || (e.path ?? "").startsWith(`${path}/`) || (e.path === parent && (e.message ?? "").includes(last)),
  );
}

describe(`schema conformance (seed ${SEED})`, () => {
  it("the generator makes valid requests for every operation with an input", () => {
    const misses = plans.filter((p) => p.generatorMisses.length > 0).map((p) => `${p.operationId}: ${p.generatorMisses.join(", ")}`);
    expect(misses).toEqual([]);
    expect(plans.every((p) => p.valid.length > 0)).toBe(true);
  });

  it("requests the schemas accept reach the handler: no 400 from the request checks, no 500", async () => {
    const outcomes = await sendAll(plans.flatMap((p) => p.valid));
    const failures: string[] = [];
    for (const outcome of outcomes) {
      const { request, response } = outcome;
      if (response.status < 0) continue;
      if (response.status === 500) failures.push(`500 on a valid request\n${describeOutcome(outcome)}`);
      if (response.status !== 400) continue;
      const id = response.headers["x-request-id"];
      const wasReached = typeof id === "string" && reached.get(id) === true;
      if (!wasReached) {
        failures.push(`the schema accepts it, the request checks refuse it\n${describeOutcome(outcome)}`);
        continue;
      }
      const errors = (response.json as ErrorBody | undefined)?.errors ?? [];
      const excused = (e: { path?: string; message?: string }) =>
        OPERATION_RULES.some((r) => r.operations.test(request.operationId) && r.path.test(e.path ?? "") && r.message.test(e.message ?? ""));
      if (errors.length === 0 || !errors.every(excused))
        failures.push(`the handler refuses a schema-valid request by a rule the contract does not state\n${describeOutcome(outcome)}`);
    }
    console.info(`conformance: ${outcomes.length} valid requests, statuses ${JSON.stringify(tally(outcomes))}`);
    if (process.env.CONFORMANCE_ALL) console.info(failures.join("\n\n========\n\n"));
    expect(failures.slice(0, 12).join("\n\n========\n\n"), `${failures.length} disagreements`).toBe("");
    expect(outcomes.filter((o) => o.response.status < 0).length).toBe(0);
  }, 300_000);

  it("each single broken constraint is refused with 400 naming the field", async () => {
    const broken = plans.flatMap((p) => p.broken);
    const outcomes = await sendAll(broken);
    const failures: string[] = [];
    for (const outcome of outcomes) {
      const { request, response } = outcome;
      const path = request.broken?.path as string;
      if (response.status !== 400 || !namesField(response.json as ErrorBody, path))
        failures.push(`expected 400 naming ${path}\n${describeOutcome(outcome)}`);
    }
    const kinds = tallyBy(broken.map((r) => r.broken?.constraint ?? ""));
    console.info(`conformance: ${outcomes.length} broken requests by constraint ${JSON.stringify(kinds)}`);
    if (process.env.CONFORMANCE_ALL) console.info(failures.join("\n\n========\n\n"));
    expect(failures.slice(0, 12).join("\n\n========\n\n"), `${failures.length} disagreements`).toBe("");
    // The run must have been meaningful: every kind of constraint the issue names was broken somewhere.
    for (const kind of ["type", "required", "enum", "pattern", "minLength", "maxLength", "maximum", "additionalProperties", "nul"])
      expect(kinds[kind] ?? 0, kind).toBeGreaterThan(0);
  }, 300_000);
});

// Examples are copy-paste ready (docs/design.md): sent exactly as the portal shows them, with the key of an organization
// the examples have never heard of, none is refused for naming another organization (or for want of a scope).
describe("request examples as is, with a new organization's key", () => {
  it("carry no organizationId, and none answers 403 FORBIDDEN", async () => {
    const doc = loadSpec();
    const requests: ConformanceRequest[] = [];
    for (const op of specOperations(doc).filter((o) => o.operation.security === "apiKey")) {
      const media = (op.raw.requestBody as { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } | undefined)
        ?.content?.["application/json"];
      for (const [name, example] of Object.entries(media?.examples ?? {})) {
        const request = exampleRequest(doc, op);
        requests.push({
          index: requests.length,
          operationId: op.operation.operationId,
          mutation: "example",
          detail: name,
          method: request.method,
          path: request.path,
          headers: [...Object.entries(request.headers), ["content-type", "application/json"]] as Array<[string, string]>,
          body: JSON.stringify(example.value),
          credential: "literal",
        });
      }
    }
    const withOrganization = requests.filter((r) => "organizationId" in JSON.parse(r.body as string));
    expect(withOrganization.map((r) => `${r.operationId} ${r.detail}`)).toEqual([]);
    const outcomes = await sendAll(
      requests.map((r) => ({ ...r, headers: [...r.headers, ["authorization", `Bearer ${newOrganizationKey}`]] })),
    );
    const forbidden = outcomes.filter((o) => ["FORBIDDEN", "forbidden"].includes((o.response.json as ErrorBody | undefined)?.code ?? ""));
    expect(forbidden.map(describeOutcome)).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(30);
    // And none is malformed: an example the contract refuses would be a spec bug.
    const invalid = outcomes.filter(
      (o) =>
        o.response.status === 500 ||
        ["VALIDATION_ERROR", "invalid_request"].includes((o.response.json as ErrorBody | undefined)?.code ?? ""),
    );
    expect(invalid.map(describeOutcome)).toEqual([]);
  }, 120_000);
});

const tally = (outcomes: Outcome[]) => tallyBy(outcomes.map((o) => String(o.response.status)));

function tallyBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) out[value] = (out[value] ?? 0) + 1;
  return out;
}
