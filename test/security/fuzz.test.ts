// Schema-driven fuzz run: thousands of malformed requests, generated from the bundled spec by mutating a valid-ish
// baseline of every operation (v1, v2 agent, metrics, admin), sent with an all-scopes sandbox key (a production key for
// a share of them), 8 in flight. Asserts: no 5xx; every error in its surface's documented shape with a code the
// operation declares; no internals in error bodies; no record created or changed by a rejected request.
// Reproduce a run: FUZZ_SEED=<seed printed below / in the failure> npx vitest run --project pglite-rest test/security/fuzz.test.ts
// (FUZZ_COUNT=<n> changes the number of requests; request i depends only on the seed and i.)

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret, parseSecretsKey } from "../../server/lib/webhooks/secret-box.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { authorize, createProgramme, fund, issueCard } from "../helpers/cards.ts";
import { ResponseJudge } from "../helpers/fuzz-checks.ts";
import { snapshotDiff, tableSnapshotter } from "../helpers/fuzz-db.ts";
import { createSender, type FuzzResponse } from "../helpers/fuzz-http.ts";
import { fuzzCount, fuzzSeed } from "../helpers/fuzz-random.ts";
import { type FuzzFixtures, type FuzzRequest, formatRequest, generateFuzzRequests } from "../helpers/fuzz-requests.ts";
import { joinMember } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect } from "../helpers/v2.ts";

const ORG = "org_fuzz";
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const SEED = fuzzSeed();
const COUNT = fuzzCount(3200);
const CATEGORIES = ["bank_transfer", "custody", "card_issuance", "token_issuance", "chain_read", "compliance_screening", "fx"];

// Rejected requests that record something by design (docs/design.md), by error code → tables they may touch. Nothing
// else may change while only rejections are answered.
const RECORDED_REJECTIONS: Record<string, string[]> = {
  // "both decisions recorded in a transaction of their own (so a block stays on record although the request fails)":
  // server/domain/compliance/enforce-compliance.ts; the screening also records a `compliance.screened` event.
  COMPLIANCE_BLOCKED: ["ComplianceDecision", "ActivityEvent"],
};

// Codes answered before the idempotency middleware reserves a key: such a request must leave no idempotency record.
const BEFORE_RESERVATION = new Set([
  "UNAUTHORIZED",
  "unauthorized",
  "METHOD_NOT_ALLOWED",
  "method_not_allowed",
  "PAYLOAD_TOO_LARGE",
  "payload_too_large",
  "UNSUPPORTED_MEDIA_TYPE",
  "unsupported_media_type",
  "IDEMPOTENCY_KEY_REQUIRED",
]);

let server: TestServer;
let sandboxKey: string;
let productionKey: string;
/** An owner of ORG with a verified second factor: the operations only a member's session may call use it. */
let owner: { cookie: string; origin: string };
let fixtures: FuzzFixtures;

beforeAll(async () => {
  server = await startTestServer();
  sandboxKey = (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES, actor: "fuzz" })).key;
  productionKey = (await server.createKey({ organizationId: ORG, environment: "production", scopes: ALL_WRITE_SCOPES, actor: "fuzz" })).key;
  // Connected providers let valid-ish mutations go past "not connected" into the domain code.
  // (Production gets none: a simulator cannot be connected for production, so production requests fail closed.)
  for (const category of CATEGORIES) await connect(server, { organizationId: ORG, category });
  const { cookie, origin } = (await joinMember(server, ORG, { role: "owner", secondFactor: true })).headers();
  owner = { cookie: cookie as string, origin: origin as string };
  // Real resources for path parameters, so some requests reach existing records rather than 404.
  const call = api(server.url, sandboxKey);
  const wallet = await call("POST", "/api/v1/wallets", { chain: "base", label: "fuzz" });
  const payment = await call("POST", "/api/v1/payments", {
    amount: "1.00",
    stablecoin: "USDC",
    chain: "base",
    toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  });
  expect([wallet.status, payment.status]).toEqual([201, 201]);
  const programmeId = await createProgramme(call);
  const cardId = await issueCard(call, programmeId);
  await fund(call, cardId, "100.00");
  const authorizationId = (await authorize(call, cardId, "1.00")).authorizationId as string;
  const card = { cardId };
  const cardAuth = { cardId, authorizationId };
  fixtures = {
    organizationId: ORG,
    adminOrganizationId: `${ORG}_admin`,
    pathParams: {
      getWallet: { id: wallet.json.id },
      getWalletBalance: { id: wallet.json.id },
      getPayment: { id: payment.json.id },
      getCard: card,
      listCardTransactions: card,
      fundCard: card,
      freezeCard: card,
      unfreezeCard: card,
      deactivateCard: card,
      updateCardLimits: card,
      simulateCardAuthorization: card,
      captureCardAuthorization: cardAuth,
      reverseCardAuthorization: cardAuth,
    },
    bodyFields: { issueCard: { programmeId } },
  };
}, 120_000);
afterAll(() => server?.close());

interface Outcome {
  request: FuzzRequest;
  response: FuzzResponse;
}

const describeOutcome = ({ request, response }: Outcome) =>
  `${formatRequest(request, SEED)}\n→ ${response.status} ${response.text.slice(0, 600)}`;

describe(`schema-driven fuzz (seed ${SEED}, ${COUNT} requests)`, () => {
  it("answers every malformed request with a documented 4xx and writes nothing for rejected ones", async () => {
    console.info(`fuzz: seed ${SEED}, ${COUNT} requests — reproduce with FUZZ_SEED=${SEED}`);
    const spec = loadSpec();
    const judge = new ResponseJudge(spec);
    const generated = generateFuzzRequests({
      seed: SEED,
      count: COUNT,
      fixtures,
      skip: (op) => op.operation.surface === "health",
    });
    // Signing out ends the owner's session every other session operation uses: those requests go last (each request
    // still depends only on the seed and its index).
    const signsOut = (r: FuzzRequest) => /^(deleteCurrentSession|deleteAllSessions)$/.test(r.operationId);
    const requests = [...generated.filter((r) => !signsOut(r)), ...generated.filter(signsOut)];
    const sender = createSender(
      server.url,
      { sandbox: sandboxKey, production: productionKey, admin: server.adminToken, scheduler: "test-scheduler-secret", session: owner },
      CONCURRENCY,
    );
    // The idempotency table is checked per key at the end instead (a rejection after reservation stores its answer).
    // ApiKeyUsage is a key's "last used", written off the request path whenever an authenticated key was used, rejected
    // request or not (server/middleware/key-usage.ts).
    const snapshot = await tableSnapshotter(server, ["IdempotencyRecord", "ApiKeyUsage"]);
    const failures: string[] = [];
    const outcomes: Outcome[] = [];
    let strictBatches = 0;
    let batches = 0;
    let before = await snapshot();
    const started = performance.now();

    try {
      for (let start = 0; start < requests.length; start += CONCURRENCY) {
        const batch = requests.slice(start, start + CONCURRENCY);
        const results = await Promise.all(batch.map(async (request) => ({ request, response: await sender.send(request) })));
        const after = await snapshot();
        batches++;
        for (const outcome of results) {
          outcomes.push(outcome);
          const problems = judge.judge(outcome.request, outcome.response);
          if (problems.length > 0) failures.push(`${problems.join("; ")}\n${describeOutcome(outcome)}`);
        }
        // Strict no-write check for batches answered only with errors. A batch with a success (some mutations are
        // still valid, e.g. a unicode label) may legitimately write, and cannot be attributed row by row, so it is
        // skipped; the assertion below requires most batches to be checked.
        if (results.every((o) => o.response.status >= 400 || o.response.status < 0)) {
          strictBatches++;
          const allowed = new Set(results.flatMap((o) => RECORDED_REJECTIONS[codeOf(o.response)] ?? []));
          // A session's last activity (its idle expiry) moves with any request it authenticates, rejected or not, at
          // most once a minute (server/middleware/session-auth.ts).
          if (results.some((o) => o.request.credential === "session")) allowed.add("MemberSession");
          const changed = snapshotDiff(before, after, allowed);
          if (changed.length > 0)
            failures.push(`rejected requests changed ${changed.join(", ")}; the batch:\n${results.map(describeOutcome).join("\n---\n")}`);
        }
        before = after;
      }
    } finally {
      sender.close();
    }

    failures.push(...(await idempotencyProblems(outcomes)));
    const statuses = tally(outcomes.map((o) => String(o.response.status)));
    console.info(
      `fuzz: ${outcomes.length} requests in ${Math.round(performance.now() - started)} ms, ${strictBatches}/${batches} batches all-rejected, statuses ${JSON.stringify(statuses)}`,
    );
    expect(failures.slice(0, 15).join("\n\n========\n\n"), `${failures.length} fuzz failures (seed ${SEED})`).toBe("");

    // The run itself must have been meaningful: enough requests, every operation fuzzed, mostly rejections checked strictly.
    expect(outcomes.length).toBeGreaterThanOrEqual(Math.min(COUNT, 3000));
    const unsent = outcomes.filter((o) => o.response.status < 0);
    expect(unsent.length, unsent.map(describeOutcome).slice(0, 3).join("\n")).toBeLessThan(outcomes.length * 0.02);
    const fuzzed = new Set(outcomes.map((o) => o.request.operationId));
    const operations = Object.values(spec.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
    );
    expect(operations.filter((id) => !fuzzed.has(id) && id !== "getHealth" && id !== "getReadiness")).toEqual([]);
    if (COUNT >= 1000) expect(strictBatches).toBeGreaterThan(batches * 0.5);
  }, 300_000);
});

function codeOf(response: FuzzResponse): string {
  const code = (response.json as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : "";
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) out[value] = (out[value] ?? 0) + 1;
  return out;
}

/** A stored answer as sent: operations whose answer carries a secret (x-seal-stored-answer) keep it sealed. */
function storedAnswer(body: string): string {
  return body.startsWith("v1.") ? openSecret(body, parseSecretsKey(server.config.webhooks.secretsKey as string)) : body;
}

/** Idempotency records of the run: none left in progress (a leaked reservation would block the key), each stored
 * answer is the one its request got, and no request rejected before reservation left a record. */
async function idempotencyProblems(outcomes: Outcome[]): Promise<string[]> {
  const problems: string[] = [];
  const byKey = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    const key = outcome.request.idempotencyKey;
    if (key) byKey.set(key, [...(byKey.get(key) ?? []), outcome]);
  }
  const records = await server.db.prisma.idempotencyRecord.findMany({ where: { organizationId: ORG } });
  const recorded = new Map(records.map((r) => [r.key, r]));
  for (const record of records) {
    if (record.state !== "completed")
      problems.push(`idempotency record ${record.key} left ${record.state} (${record.method} ${record.path})`);
    const mine = byKey.get(record.key);
    if (mine?.length !== 1) continue;
    const [outcome] = mine as [Outcome];
    const storedRequestId = record.responseBody
      ? (JSON.parse(storedAnswer(record.responseBody)) as { requestId?: string }).requestId
      : undefined;
    const observedRequestId = (outcome.response.json as { requestId?: string } | undefined)?.requestId;
    if (record.responseStatus !== outcome.response.status || (observedRequestId && storedRequestId !== observedRequestId))
      problems.push(`idempotency record stores ${record.responseStatus} but the request got:\n${describeOutcome(outcome)}`);
  }
  for (const [key, mine] of byKey) {
    if (mine.length !== 1 || !recorded.has(key)) continue;
    const [outcome] = mine as [Outcome];
    if (outcome.request.expect || BEFORE_RESERVATION.has(codeOf(outcome.response)))
      problems.push(`a request rejected before reservation left an idempotency record:\n${describeOutcome(outcome)}`);
  }
  return problems;
}
