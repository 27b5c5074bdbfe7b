// Every error code the description lists for the card endpoints (and each code of the sandbox test helpers), reached
// over HTTP through a real condition or a documented simulator magic value. A code that an operation genuinely cannot
// produce is documented in the spec as "not produced" — the last test checks that the table and the spec agree.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../server/errors/codes.ts";
import { fingerprintRequest } from "../../server/idempotency/idempotency-key.ts";
import { createRateLimiter, type RateLimiter, RateLimitStoreError } from "../../server/rate-limit/rate-limiter.ts";
import { errorCodesOf } from "../../server/spec/error-codes-of.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import {
  authorizationsPath,
  authorize,
  CARDS,
  type Call,
  capturePath,
  cardholderBody,
  cardPath,
  createProgramme,
  fundedCard,
  issueCard,
  programmeBody,
  reversePath,
  withFailingWrites,
} from "../helpers/cards.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

type Res = Awaited<ReturnType<Call>>;
interface Req {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
}

const WRITES = [
  "createCardProgramme",
  "issueCard",
  "fundCard",
  "freezeCard",
  "unfreezeCard",
  "deactivateCard",
  "updateCardLimits",
  "simulateCardAuthorization",
  "captureCardAuthorization",
  "reverseCardAuthorization",
] as const;
const READS = ["getCard", "listCardTransactions"] as const;
type Op = (typeof WRITES)[number] | (typeof READS)[number];
const OPS: Op[] = [...WRITES, ...READS];
const isWrite = (op: Op) => (WRITES as readonly string[]).includes(op);

let server: TestServer;
let call: Call;
let keyId: string;
let programmeId: string;
/** Keys whose requests the real (memory) limiter budgets at 1 per window; `down` makes the limiter store fail. */
const limited = new Set<string>();
const limiterState = { down: false };

function switchableLimiter(): RateLimiter {
  const open = createRateLimiter({ perKey: 100_000, perOrganization: 100_000, windowSeconds: 60 });
  const tight = createRateLimiter({ perKey: 1, perOrganization: 100_000, windowSeconds: 60 });
  return {
    async consume(apiKeyId, organizationId) {
      if (limiterState.down) throw new RateLimitStoreError("simulated store outage");
      return (limited.has(apiKeyId) ? tight : open).consume(apiKeyId, organizationId);
    },
    ready: async () => {},
    close: async () => {
      await open.close();
      await tight.close();
    },
  };
}

beforeAll(async () => {
  server = await startTestServer({ rateLimiter: switchableLimiter() });
  const key = await server.createKey({ scopes: ["cards:write"] });
  keyId = key.id;
  call = api(server.url, key.key);
  programmeId = await createProgramme(call);
});
afterAll(() => server?.close());

/** A valid request for `op`, on fresh resources in the state the operation needs. */
async function valid(op: Op): Promise<Req> {
  switch (op) {
    case "createCardProgramme":
      return { method: "POST", path: `${CARDS}/programmes`, body: programmeBody() };
    case "issueCard":
      return { method: "POST", path: `${CARDS}/issue`, body: { programmeId, cardholder: cardholderBody() } };
    case "getCard":
      return { method: "GET", path: cardPath(await issueCard(call, programmeId)) };
    case "listCardTransactions":
      return { method: "GET", path: cardPath(await issueCard(call, programmeId), "/transactions") };
    case "fundCard":
      return { method: "POST", path: cardPath(await issueCard(call, programmeId), "/fund"), body: { amount: "1.00", asset: "USDC" } };
    case "freezeCard":
    case "deactivateCard":
      return {
        method: "POST",
        path: cardPath(await issueCard(call, programmeId), op === "freezeCard" ? "/freeze" : "/deactivate"),
        body: {},
      };
    case "unfreezeCard": {
      const cardId = await issueCard(call, programmeId);
      await send({ method: "POST", path: cardPath(cardId, "/freeze"), body: {} });
      return { method: "POST", path: cardPath(cardId, "/unfreeze"), body: {} };
    }
    case "updateCardLimits":
      return { method: "POST", path: cardPath(await issueCard(call, programmeId), "/limits"), body: { limits: { daily: "10.00" } } };
    case "simulateCardAuthorization":
      return { method: "POST", path: authorizationsPath(await fundedCard(call, "10.00")), body: { amount: "1.00" } };
    case "captureCardAuthorization":
    case "reverseCardAuthorization": {
      const cardId = await fundedCard(call, "10.00");
      const { authorizationId } = await authorize(call, cardId, "5.00");
      return { method: "POST", path: (op === "captureCardAuthorization" ? capturePath : reversePath)(cardId, authorizationId), body: {} };
    }
  }
}

/** A well-formed request for `op` naming resources that need not exist: for failures decided before the handler runs. */
function shallow(op: Op): Req {
  const card = "card_notLookedUp";
  const auth = "cauth_notLookedUp";
  switch (op) {
    case "createCardProgramme":
      return { method: "POST", path: `${CARDS}/programmes`, body: programmeBody() };
    case "issueCard":
      return { method: "POST", path: `${CARDS}/issue`, body: { programmeId: "cprg_notLookedUp", cardholder: cardholderBody() } };
    case "getCard":
      return { method: "GET", path: cardPath(card) };
    case "listCardTransactions":
      return { method: "GET", path: cardPath(card, "/transactions") };
    case "fundCard":
      return { method: "POST", path: cardPath(card, "/fund"), body: { amount: "1.00", asset: "USDC" } };
    case "freezeCard":
    case "unfreezeCard":
    case "deactivateCard":
      return { method: "POST", path: cardPath(card, `/${op.replace("Card", "")}`), body: {} };
    case "updateCardLimits":
      return { method: "POST", path: cardPath(card, "/limits"), body: { limits: {} } };
    case "simulateCardAuthorization":
      return { method: "POST", path: authorizationsPath(card), body: { amount: "1.00" } };
    case "captureCardAuthorization":
      return { method: "POST", path: capturePath(card, auth), body: {} };
    case "reverseCardAuthorization":
      return { method: "POST", path: reversePath(card, auth), body: {} };
  }
}

function send(req: Req, options: { caller?: Call; headers?: Record<string, string>; idempotent?: boolean } = {}): Promise<Res> {
  const { caller = call, headers = {}, idempotent = req.method === "POST" } = options;
  return caller(req.method, req.path, req.body, { ...(idempotent ? idem() : {}), ...headers });
}

const withBody = (req: Req, body: unknown): Req => ({ ...req, body });
const callers = new Map<string, Call>();
/** A key of the same organization with other scopes or another environment (created once). */
async function otherCaller(scopes: string[], environment: "sandbox" | "production" = "sandbox"): Promise<Call> {
  const id = `${environment}:${scopes.join(",")}`;
  if (!callers.has(id)) callers.set(id, api(server.url, (await server.createKey({ scopes, environment, organizationId: "org_test" })).key));
  return callers.get(id)!;
}

async function renamed(table: string, run: () => Promise<Res>): Promise<Res> {
  await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "${table}" RENAME TO "${table}_gone"`);
  try {
    return await run();
  } finally {
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "${table}_gone" RENAME TO "${table}"`);
  }
}

/** Amount-bearing operations and the field that carries the magic amount. */
const MAGIC: Partial<Record<Op, (req: Req, amount: string) => Req>> = {
  fundCard: (req, amount) => withBody(req, { amount, asset: "USDC" }),
  simulateCardAuthorization: (req, amount) => withBody(req, { amount }),
};

type Reach = (op: Op) => Promise<Res>;
const cases: Array<[Op, ErrorCode, Reach]> = [];
const add = (ops: readonly Op[], code: ErrorCode, reach: Reach) => {
  for (const op of ops) cases.push([op, code, reach]);
};
const cardOps = OPS.filter((op) => op !== "createCardProgramme" && op !== "issueCard");

// --- Codes of every keyed card endpoint (those decided before the handler runs use a shallow request)
add(OPS, "VALIDATION_ERROR", async (op) => send(shallow(op), { headers: { "sandbox-simulate-error": "NOT_A_FAILURE" } }));
add(WRITES, "IDEMPOTENCY_KEY_REQUIRED", async (op) => send(shallow(op), { idempotent: false }));
add(OPS, "UNAUTHORIZED", async (op) => send(shallow(op), { caller: api(server.url) }));
add(OPS, "FORBIDDEN", async (op) => send(shallow(op), { caller: await otherCaller(["payments:write"]) }));
add(OPS, "PROVIDER_NOT_CONNECTED", async (op) => send(shallow(op), { caller: await otherCaller(["cards:write"], "production") }));
// A reviewed card_issuance connection names a provider this build has no adapter for (one retired after the connection
// was made: the admin API refuses unknown slugs, so the row is written directly).
let misconfigured: Call | undefined;
add(OPS, "SERVER_MISCONFIGURED", async (op) => {
  if (!misconfigured) {
    const organizationId = "org_cards_misconfigured";
    misconfigured = api(server.url, (await server.createKey({ scopes: ["cards:write"], environment: "production", organizationId })).key);
    await server.db.kysely
      .insertInto("ProviderConnection")
      .values({
        id: "conn_retiredIssuer0000000000",
        organizationId,
        environment: "production",
        category: "card_issuance",
        providerSlug: "retired_issuer",
        reviewed: true,
        config: "{}",
      })
      .execute();
  }
  return send(shallow(op), { caller: misconfigured });
});
add(OPS, "RATE_LIMIT_EXCEEDED", async (op) => {
  const req = shallow(op);
  const key = await server.createKey({ scopes: ["cards:write"] });
  limited.add(key.id);
  const caller = api(server.url, key.key);
  await send(req, { caller });
  return send(req, { caller });
});
add(OPS, "RATE_LIMIT_UNAVAILABLE", async (op) => {
  const req = shallow(op);
  limiterState.down = true;
  try {
    return await send(req);
  } finally {
    limiterState.down = false;
  }
});
add(OPS, "INTERNAL_ERROR", async (op) => {
  const req = await valid(op);
  return renamed(op === "createCardProgramme" || op === "issueCard" ? "CardProgramme" : "Card", () => send(req));
});
// --- Idempotency (card writes)
add(WRITES, "IDEMPOTENCY_IN_PROGRESS", async (op) => {
  const req = await valid(op);
  const key = `live-${op}-${Date.now()}`;
  const future = new Date(Date.now() + 3_600_000);
  await server.db.prisma.idempotencyRecord.create({
    data: {
      id: `idem_${key}`,
      organizationId: "org_test",
      apiKeyId: keyId,
      method: "POST",
      path: req.path,
      key,
      fingerprint: fingerprintRequest("POST", req.path, req.body),
      state: "in_progress",
      lockToken: "another-request",
      lockedUntil: future,
      expiresAt: future,
    },
  });
  return send(req, { idempotent: false, headers: { "idempotency-key": key } });
});
add(WRITES, "IDEMPOTENCY_KEY_REUSED", async (op) => {
  const req = await valid(op);
  const headers = idem();
  await send(req, { headers, idempotent: false });
  const other: Record<string, unknown> =
    op === "createCardProgramme" || op === "issueCard" ? ((await valid(op)).body as Record<string, unknown>) : { ...(req.body as object) };
  if (op === "fundCard" || op === "simulateCardAuthorization" || op === "captureCardAuthorization" || op === "reverseCardAuthorization") {
    other.amount = "2.00";
  } else if (op === "updateCardLimits") other.limits = {};
  else if (op !== "createCardProgramme" && op !== "issueCard") other.reason = "another reason";
  return send({ ...req, body: other }, { headers, idempotent: false });
});
// Every body is judged after authentication: too large (413) or not JSON (415) on each card write.
add(WRITES, "PAYLOAD_TOO_LARGE", async (op) => send(withBody(shallow(op), JSON.stringify({ pad: "x".repeat(110 * 1024) }))));
add(WRITES, "UNSUPPORTED_MEDIA_TYPE", async (op) =>
  send(withBody(shallow(op), "freeze it"), { headers: { "content-type": "text/plain" } }),
);
// The key store unreachable (every read of it fails as a connection refused by the server would: SQLSTATE 57P03):
// nothing can be authenticated, nothing runs.
add(OPS, "SERVICE_UNAVAILABLE", async (op) => {
  const req = shallow(op);
  // A key nobody used yet: an instance keeps used keys in memory (server/db/cached-read.ts), so only a new key's
  // authentication reaches the database this test makes unreachable.
  const caller = api(server.url, (await server.createKey({ scopes: ["cards:write"] })).key);
  const db = server.db.prisma;
  await db.$executeRawUnsafe(`ALTER TABLE "ApiKey" RENAME TO "ApiKey_reachable"`);
  await db.$executeRawUnsafe(
    `CREATE FUNCTION "cards_test_unreachable"() RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated outage' USING ERRCODE = '57P03'; END $$`,
  );
  await db.$executeRawUnsafe(`CREATE VIEW "ApiKey" AS SELECT * FROM "ApiKey_reachable" WHERE "cards_test_unreachable"()`);
  try {
    return await send(req, { caller });
  } finally {
    await db.$executeRawUnsafe(`DROP VIEW "ApiKey"`);
    await db.$executeRawUnsafe(`DROP FUNCTION "cards_test_unreachable"()`);
    await db.$executeRawUnsafe(`ALTER TABLE "ApiKey_reachable" RENAME TO "ApiKey"`);
  }
});
add(WRITES, "IDEMPOTENCY_UNAVAILABLE", async (op) => {
  const req = shallow(op);
  return renamed("IdempotencyRecord", () => send(req));
});
// --- Simulated issuer failures: the Sandbox-Simulate-Error header on every card endpoint, magic amounts where there is one
for (const failure of [
  "PROVIDER_AUTHORIZATION_DENIED",
  "CARD_REQUEST_REJECTED",
  "PROVIDER_RATE_LIMITED",
  "CARD_OPERATION_NOT_SUPPORTED",
  "PROVIDER_EXECUTION_FAILED",
] as const) {
  add(OPS, failure, async (op) => send(await valid(op), { headers: { "sandbox-simulate-error": failure } }));
}
for (const [amount, code] of [
  ["403.03", "PROVIDER_AUTHORIZATION_DENIED"],
  ["429.29", "PROVIDER_RATE_LIMITED"],
  ["501.01", "CARD_OPERATION_NOT_SUPPORTED"],
  ["666.66", "PROVIDER_EXECUTION_FAILED"],
] as const) {
  add(["fundCard", "simulateCardAuthorization"], code, async (op) => send(MAGIC[op]!(await valid(op), amount)));
  add(["captureCardAuthorization", "reverseCardAuthorization"], code, async (op) => {
    const cardId = await fundedCard(call, "1000.00");
    const { authorizationId } = await authorize(call, cardId, "900.00");
    const path = (op === "captureCardAuthorization" ? capturePath : reversePath)(cardId, authorizationId);
    return send({ method: "POST", path, body: { amount } });
  });
}
// --- Not found
add(cardOps, "NOT_FOUND", async (op) => {
  const req = await valid(op);
  return send({ ...req, path: req.path.replace(/card_[A-Za-z0-9]+/, "card_doesNotExist") });
});
add(["issueCard"], "NOT_FOUND", async () =>
  send({ method: "POST", path: `${CARDS}/issue`, body: { programmeId: "cprg_doesNotExist", cardholder: cardholderBody() } }),
);
add(["captureCardAuthorization", "reverseCardAuthorization"], "NOT_FOUND", async (op) => {
  const req = await valid(op);
  return send({ ...req, path: req.path.replace(/cauth_[A-Za-z0-9]+/, "cauth_doesNotExist") });
});
// --- Compliance (real screening and policy conditions)
add(["createCardProgramme"], "COMPLIANCE_BLOCKED", async () =>
  send({ method: "POST", path: `${CARDS}/programmes`, body: programmeBody({ jurisdictions: ["US", "CU"] }) }),
);
add(["issueCard"], "COMPLIANCE_BLOCKED", async () =>
  send({ method: "POST", path: `${CARDS}/issue`, body: { programmeId, cardholder: cardholderBody({ name: "Blocked Person" }) } }),
);
add(["fundCard"], "COMPLIANCE_BLOCKED", async (op) => send(MAGIC[op]!(await valid(op), "1000000.01")));
add(["updateCardLimits"], "COMPLIANCE_BLOCKED", async (op) =>
  send(withBody(await valid(op), { limits: { perAuthorization: "1000000.01" } })),
);
add(["unfreezeCard"], "COMPLIANCE_BLOCKED", async () => {
  // The organization's policy blocks DE (one of the programme's jurisdictions) after the card was issued and frozen.
  const org = `org_policy_${Date.now()}`;
  const caller = api(server.url, (await server.createKey({ organizationId: org, scopes: ["cards:write"] })).key);
  const cardId = await issueCard(caller, await createProgramme(caller, { jurisdictions: ["US", "DE"] }));
  await caller("POST", cardPath(cardId, "/freeze"), {}, idem());
  const admin = api(server.url, server.adminToken);
  const put = await admin("PUT", `/api/admin/organizations/${org}/settings`, {
    policy: { blockedJurisdictions: ["DE"], maxAmountUsd: "1000000" },
  });
  expect(put.status, put.text).toBe(200);
  const res = await caller("POST", cardPath(cardId, "/unfreeze"), {}, idem());
  expect(res.json.reasons).toEqual([expect.objectContaining({ rule: "policy.jurisdiction_blocked" })]);
  return res;
});
// --- Card state and funds
add(["createCardProgramme"], "CARD_RECORD_CONFLICT", async (op) => {
  const req = await valid(op);
  await send(req);
  return send(req);
});
add(["issueCard"], "CARD_RECORD_CONFLICT", async (op) => {
  const req = await valid(op);
  await send(req);
  return send(req);
});
add(["fundCard", "updateCardLimits", "freezeCard", "deactivateCard"], "CARD_RECORD_CONFLICT", async (op) => {
  const req = await valid(op);
  await send({ method: "POST", path: req.path.replace(/\/[a-z]+$/, "/deactivate"), body: {} });
  return send(req);
});
add(["unfreezeCard"], "CARD_RECORD_CONFLICT", async () =>
  send({ method: "POST", path: cardPath(await issueCard(call, programmeId), "/unfreeze"), body: {} }),
);
add(["captureCardAuthorization", "reverseCardAuthorization"], "CARD_RECORD_CONFLICT", async (op) => {
  const req = await valid(op);
  await send(req);
  return send(req);
});
add(["fundCard"], "CARD_INSUFFICIENT_FUNDS", async (op) => send(MAGIC[op]!(await valid(op), "100000.01")));
// --- Rejected requests (real rules)
add(["createCardProgramme"], "CARD_REQUEST_REJECTED", async () =>
  send({ method: "POST", path: `${CARDS}/programmes`, body: programmeBody({ jurisdictions: ["US-NY"] }) }),
);
add(["issueCard"], "CARD_REQUEST_REJECTED", async () =>
  send({
    method: "POST",
    path: `${CARDS}/issue`,
    body: {
      programmeId,
      cardholder: cardholderBody({ billingAddress: { line1: "1 Rue", city: "Paris", postalCode: "75001", country: "FR" } }),
    },
  }),
);
add(["fundCard"], "CARD_REQUEST_REJECTED", async (op) => send(withBody(await valid(op), { amount: "1.00", asset: "USDT" })));
add(["updateCardLimits"], "CARD_REQUEST_REJECTED", async (op) =>
  send(withBody(await valid(op), { limits: { perAuthorization: "50.00", daily: "40.00" } })),
);
add(["simulateCardAuthorization"], "CARD_REQUEST_REJECTED", async (op) => send(withBody(await valid(op), { amount: "1.0000001" })));
add(["captureCardAuthorization", "reverseCardAuthorization"], "CARD_REQUEST_REJECTED", async (op) =>
  send(withBody(await valid(op), { amount: "5.01" })),
);
// --- Write failures and ledger conflicts (nothing written: see cards-ledger.test.ts for the row-count proofs)
const RECORD_TABLE: Partial<Record<Op, { table: string; on: "INSERT" | "UPDATE" }>> = {
  createCardProgramme: { table: "CardProgramme", on: "INSERT" },
  issueCard: { table: "Card", on: "INSERT" },
  fundCard: { table: "Card", on: "UPDATE" },
  freezeCard: { table: "Card", on: "UPDATE" },
  unfreezeCard: { table: "Card", on: "UPDATE" },
  deactivateCard: { table: "Card", on: "UPDATE" },
  updateCardLimits: { table: "Card", on: "UPDATE" },
  simulateCardAuthorization: { table: "CardAuthorization", on: "INSERT" },
  captureCardAuthorization: { table: "CardAuthorization", on: "UPDATE" },
  reverseCardAuthorization: { table: "CardAuthorization", on: "UPDATE" },
};
add(WRITES, "CARD_RECORD_WRITE_FAILED", async (op) => {
  const req = await valid(op);
  return withFailingWrites(server, RECORD_TABLE[op]!, () => send(req));
});
const LEDGER_OPS: Op[] = ["fundCard", "simulateCardAuthorization", "captureCardAuthorization", "reverseCardAuthorization"];
add(LEDGER_OPS, "CARD_LEDGER_WRITE_FAILED", async (op) => {
  const req = await valid(op);
  return withFailingWrites(server, { table: "CardLedgerEntry", on: "INSERT" }, () => send(req));
});
add(LEDGER_OPS, "CARD_LEDGER_CONFLICT", async (op) => {
  const req = await valid(op);
  return withFailingWrites(server, { table: "CardLedgerEntry", on: "INSERT", sqlstate: "40001" }, () => send(req));
});

describe("card error codes over HTTP", () => {
  it.each(cases.map(([op, code, reach], i) => [`${op} ${ERROR_CODES[code].status} ${code}`, op, code, reach, i] as const))(
    "%s",
    async (_name, op, code, reach) => {
      const res = await reach(op);
      expect(res.status, res.text).toBe(ERROR_CODES[code].status);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(res.json).toMatchObject({ code, status: ERROR_CODES[code].status, requestId: res.headers.get("x-request-id") });
      if (code === "PROVIDER_RATE_LIMITED") expect(res.headers.get("retry-after")).toBe("1");
    },
  );
});

describe("the spec and this table agree", () => {
  const spec = loadSpec();
  const operations = new Map<string, Record<string, unknown>>();
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item as Record<string, { operationId?: string }>)) {
      if (op?.operationId && OPS.includes(op.operationId as Op)) operations.set(op.operationId, op as Record<string, unknown>);
    }
  }
  // A response is a shared component ($ref) whose description the operation may override beside the $ref.
  const resolve = (response: { $ref?: string; description?: string }) => {
    const shared = response.$ref
      ? (response.$ref
          .slice(2)
          .split("/")
          .reduce<Record<string, unknown>>(
            (o, k) => o[k] as Record<string, unknown>,
            spec as unknown as Record<string, unknown>,
          ) as typeof response)
      : response;
    return { ...shared, description: response.description ?? shared.description };
  };
  // The codes an operation documents are its `x-error-codes`; the response's description says when each is answered.
  const documented = (op: Op) => {
    const raw = operations.get(op) ?? {};
    const responses = (raw.responses ?? {}) as Record<string, { $ref?: string; description?: string }>;
    return Object.entries(errorCodesOf(raw)).flatMap(([status, codes]) => {
      const response = resolve(responses[status] ?? {});
      return codes.map((code) => {
        const line = (response.description ?? "").split("\n").find((l) => l.startsWith(`- \`${code}\``)) ?? "";
        return { code, notProduced: /`: not produced/.test(line) };
      });
    });
  };

  it.each(OPS)("%s: every documented code is reached above unless the spec says it is not produced", (op) => {
    const reached = new Set(cases.filter(([o]) => o === op).map(([, code]) => code));
    const codes = documented(op);
    expect(codes.length).toBeGreaterThan(10);
    for (const { code, notProduced } of codes) {
      if (code === "NOT_IMPLEMENTED") continue;
      expect(`${code} ${notProduced ? "not produced" : "reached"}`).toBe(
        `${code} ${reached.has(code as ErrorCode) ? "reached" : "not produced"}`,
      );
    }
    expect(isWrite(op) || !reached.has("IDEMPOTENCY_KEY_REQUIRED")).toBe(true);
  });
});
