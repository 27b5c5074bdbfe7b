// One contract, three targets: the same scenarios, through the SDK, against the real server (in-process, fresh database),
// the partner mock's msw handlers and the partner mock's HTTP server (`npm run mock`). Each scenario asserts what the
// integrator relies on (read-back, pagination, 401/403/400/404/422 with their codes, replay, the FX quote), and records
// an outcome: what must be equal on every target — statuses, codes, messages, error paths, the body's members and the
// values that follow from the request. Ids and timestamps are the mock's own (simulated), so only their shape counts.
// The last block compares the recorded outcomes of the mock with the server's, scenario by scenario.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockData } from "../../sdk/src/generated/mock-data.ts";
import {
  AuthenticationError,
  BadRequestError,
  Coinplane,
  CoinplaneError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from "../../sdk/src/index.ts";
import { createCoinplaneMock, MOCK_ORGANIZATION_ID, mockApiKeys, startMockServer } from "../../sdk/src/mock/index.ts";
import { exampleBody } from "../helpers/spec-requests.ts";
import { startTestServer } from "../helpers/test-server.ts";
import { specOp } from "./mock-helpers.ts";

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const MSW_BASE = "http://contract.coinplane.test";

interface Keys {
  sandbox: string;
  readOnly: string;
  production: string;
}

interface Running {
  baseUrl: string;
  keys: Keys;
  close(): Promise<void>;
}

interface Target {
  name: string;
  start(): Promise<Running>;
}

const mockKeys: Keys = { sandbox: mockApiKeys.sandbox, readOnly: mockApiKeys.sandboxReadOnly, production: mockApiKeys.production };

const targets: Target[] = [
  {
    name: "real server",
    async start() {
      const server = await startTestServer();
      const organizationId = MOCK_ORGANIZATION_ID;
      const scopes = mockData.scopes;
      const keys: Keys = {
        sandbox: (await server.createKey({ organizationId, scopes: [...scopes] })).key,
        readOnly: (await server.createKey({ organizationId, scopes: scopes.filter((s) => s.endsWith(":read")) })).key,
        production: (await server.createKey({ organizationId, environment: "production", scopes: [...scopes] })).key,
      };
      // The FX simulator serves quotes once an operator connects it (the mock behaves as if it were connected).
      const connection = await fetch(`${server.url}/api/admin/connections`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ organizationId, environment: "sandbox", category: "fx", providerSlug: "simulator", reviewed: true }),
      });
      if (connection.status !== 201) throw new Error(`fx connection: ${connection.status} ${await connection.text()}`);
      return { baseUrl: server.url, keys, close: () => server.close() };
    },
  },
  {
    name: "mock (msw handlers)",
    async start() {
      const mock = createCoinplaneMock({ baseUrl: MSW_BASE });
      // Requests to the other targets (real sockets) pass through.
      const msw = setupServer(...mock.handlers);
      msw.listen({ onUnhandledRequest: "bypass" });
      return { baseUrl: MSW_BASE, keys: mockKeys, close: async () => msw.close() };
    },
  },
  {
    name: "mock (HTTP server)",
    async start() {
      const mock = await startMockServer({ port: 0 });
      return { baseUrl: mock.url, keys: mockKeys, close: () => mock.close() };
    },
  },
];

/** What a call left: the SDK's error, or the result, with the response headers seen. */
interface Context {
  client(key?: keyof Keys | string): Coinplane;
  /** Headers of the last response any client of this context received. */
  lastHeaders(): Headers | undefined;
}

type Outcome = Record<string, unknown>;

/** The parts of an SDK error every target must agree on. */
function errorOutcome(err: unknown): Outcome {
  if (!(err instanceof CoinplaneError)) throw err;
  return {
    class: err.constructor.name,
    status: err.status,
    code: err.code,
    message: err.detail ?? err.message,
    errors: err.errors,
    members: Object.keys(err.body as object).sort(),
  };
}

async function failure(call: Promise<unknown>): Promise<CoinplaneError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof CoinplaneError)) throw new Error(`expected a CoinplaneError, got ${String(err)}`);
  return err;
}

const members = (value: unknown) => Object.keys(value as object).sort();

interface Scenario {
  name: string;
  run(ctx: Context): Promise<Outcome>;
}

const scenarios: Scenario[] = [
  {
    name: "a created wallet is read back",
    async run(ctx) {
      const coinplane = ctx.client();
      const wallet = await coinplane.wallets.create({ chain: "polygon", label: "contract" });
      expect(wallet.id).toMatch(/^wal_[A-Za-z0-9]{20,40}$/);
      expect(await coinplane.wallets.retrieve(wallet.id)).toEqual(wallet);
      const balance = await coinplane.wallets.retrieveBalance(wallet.id);
      expect(balance.walletId).toBe(wallet.id);
      return { members: members(wallet), chain: wallet.chain, label: wallet.label, balanceMembers: members(balance) };
    },
  },
  {
    name: "payments: create, retrieve, list newest first",
    async run(ctx) {
      const coinplane = ctx.client();
      const pay = (amount: string) => coinplane.payments.create({ amount, stablecoin: "USDC", chain: "base", toAddress: EVM });
      const first = await pay("1.25");
      // The API orders by creation time (milliseconds), then id: two payments in one millisecond could list either way.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await pay("2.50");
      expect(await coinplane.payments.retrieve(first.id)).toEqual(first);
      const ids: string[] = [];
      for await (const p of coinplane.payments.list({ limit: 1 })) {
        ids.push(p.id);
        if (ids.length === 2) break;
      }
      expect(ids).toEqual([second.id, first.id]);
      return { members: members(first), amounts: [first.amount, second.amount], stablecoin: first.stablecoin, toAddress: first.toAddress };
    },
  },
  {
    name: "401: a key the API does not know",
    async run(ctx) {
      const v1 = await failure(ctx.client(`cp_sandbox_${"u".repeat(43)}`).wallets.list());
      const v2 = await failure(ctx.client(`cp_sandbox_${"u".repeat(43)}`).events.list());
      expect(v1).toBeInstanceOf(AuthenticationError);
      expect(v1).toMatchObject({ status: 401, code: "unauthorized" });
      expect(v2).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
      return { v1: errorOutcome(v1), v2: errorOutcome(v2) };
    },
  },
  {
    name: "403: a production key on the sandbox API",
    async run(ctx) {
      const err = await failure(ctx.client("production").wallets.list());
      expect(err).toBeInstanceOf(PermissionDeniedError);
      expect(err).toMatchObject({ status: 403, code: "forbidden" });
      const v2 = await ctx.client("production").events.list();
      return { error: errorOutcome(err), v2Members: members(v2) };
    },
  },
  {
    name: "403: a key without the operation's scope",
    async run(ctx) {
      const readOnly = ctx.client("readOnly");
      await readOnly.wallets.list();
      const v1 = await failure(readOnly.wallets.create({ chain: "base" }));
      const v2 = await failure(readOnly.webhookEndpoints.create({ url: "https://example.com/hooks", enabledEvents: ["card.frozen"] }));
      const fx = await failure(
        readOnly.providers.invoke({
          providerSlug: "simulator",
          category: "fx",
          operation: "quote",
          input: { sellCurrency: "USD", buyCurrency: "EUR", sellAmount: "1" },
        }),
      );
      for (const err of [v1, v2, fx]) expect(err).toBeInstanceOf(PermissionDeniedError);
      return { v1: errorOutcome(v1), v2: errorOutcome(v2), fx: errorOutcome(fx) };
    },
  },
  {
    name: "400: validation errors with the server's paths (body, query, path, oneOf)",
    async run(ctx) {
      const coinplane = ctx.client();
      const body = await failure(coinplane.wallets.create({ chain: "dogecoin", colour: "red" } as never));
      const query = await failure(coinplane.wallets.list({ limit: 0 }));
      const path = await failure(coinplane.wallets.retrieve("x".repeat(256)));
      const oneOf = await failure(coinplane.custody.transferStatus({} as never));
      const country = await failure(
        coinplane.bankTransfers.status({ transferId: "bt_4Nq7Rz2Kp9Vw3Xy6Bc8Df1", senderJurisdiction: "QQ", receiverJurisdiction: "FR" }),
      );
      for (const err of [body, query, path, oneOf, country]) {
        expect(err).toBeInstanceOf(BadRequestError);
        expect(err.errors.length).toBeGreaterThan(0);
      }
      // ajv stops at the first failed rule: the unknown member, before the enum.
      expect(body.errors.map((e) => e.path)).toEqual(["/body/colour"]);
      expect(query.errors.map((e) => e.path)).toEqual(["/query/limit"]);
      expect(path.errors.map((e) => e.path)).toEqual(["/params/id"]);
      expect(oneOf.code).toBe("VALIDATION_ERROR");
      return {
        body: errorOutcome(body),
        query: errorOutcome(query),
        path: errorOutcome(path),
        oneOf: errorOutcome(oneOf),
        country: errorOutcome(country),
      };
    },
  },
  {
    name: "404: the message names the resource",
    async run(ctx) {
      const coinplane = ctx.client();
      const payment = await failure(coinplane.payments.retrieve("pay_unknownunknownunknown00"));
      const wallet = await failure(coinplane.wallets.retrieveBalance("wal_unknownunknownunknown00"));
      const card = await failure(coinplane.cards.retrieve("card_unknown0000"));
      const transfer = await failure(
        coinplane.bankTransfers.status({ transferId: "bt_unknownunknownunknown00", senderJurisdiction: "DE", receiverJurisdiction: "FR" }),
      );
      const endpoint = await failure(coinplane.webhookEndpoints.retrieve("we_unknown0000"));
      for (const err of [payment, wallet, card, transfer, endpoint]) expect(err).toBeInstanceOf(NotFoundError);
      expect(payment.message).toBe("Payment not found");
      expect(card.detail).toBe("Card not found");
      return {
        payment: errorOutcome(payment),
        wallet: errorOutcome(wallet),
        card: errorOutcome(card),
        transfer: errorOutcome(transfer),
        endpoint: errorOutcome(endpoint),
      };
    },
  },
  {
    name: "idempotency: the same key and body replay, another body is 422",
    async run(ctx) {
      const coinplane = ctx.client();
      const idempotencyKey = `contract-${Math.random().toString(36).slice(2)}`;
      const first = await coinplane.wallets.create({ chain: "base", label: "once" }, { idempotencyKey });
      expect(ctx.lastHeaders()?.get("idempotent-replayed")).toBeNull();
      const replay = await coinplane.wallets.create({ chain: "base", label: "once" }, { idempotencyKey });
      expect(replay).toEqual(first);
      expect(ctx.lastHeaders()?.get("idempotent-replayed")).toBe("true");
      const reused = await failure(coinplane.wallets.create({ chain: "base", label: "twice" }, { idempotencyKey }));
      expect(reused).toBeInstanceOf(UnprocessableEntityError);
      expect(reused.code).toBe("idempotency_key_reused");
      return { replayed: ctx.lastHeaders() !== undefined, reused: errorOutcome(reused) };
    },
  },
  {
    name: "the FX quote is computed from its input",
    async run(ctx) {
      const quote = await ctx.client().providers.invoke({
        providerSlug: "simulator",
        category: "fx",
        operation: "quote",
        input: { sellCurrency: "EUR", buyCurrency: "JPY", sellAmount: "250.5" },
      });
      const output = quote.output as Record<string, unknown>;
      expect(output).toMatchObject({ rate: "161.194030", buyAmount: "40379.10" });
      const invalid = await failure(
        ctx.client().providers.invoke({
          providerSlug: "simulator",
          category: "fx",
          operation: "quote",
          input: { sellCurrency: "XXX", buyCurrency: "EUR", sellAmount: "1" },
        }),
      );
      expect(invalid.code).toBe("INVALID_INPUT");
      return {
        status: quote.status,
        simulated: quote.simulated,
        members: members(quote),
        output: { ...output, quoteId: typeof output.quoteId, expiresAt: typeof output.expiresAt },
        invalid: errorOutcome(invalid),
      };
    },
  },
  {
    name: "a webhook endpoint: created with its secret, read without it, deleted",
    async run(ctx) {
      const coinplane = ctx.client();
      const created = await coinplane.webhookEndpoints.create({
        url: "https://example.com/coinplane-hooks",
        description: "contract",
        enabledEvents: ["card.frozen", "payment.created"],
      });
      expect(created.secret).toMatch(/^whsec_/);
      const read = await coinplane.webhookEndpoints.retrieve(created.id);
      expect(read).not.toHaveProperty("secret");
      expect(read).toMatchObject({
        id: created.id,
        url: created.url,
        description: "contract",
        enabledEvents: ["card.frozen", "payment.created"],
      });
      await coinplane.webhookEndpoints.delete(created.id);
      const gone = await failure(coinplane.webhookEndpoints.retrieve(created.id));
      return { created: members(created), read: members(read), url: read.url, events: read.enabledEvents, gone: errorOutcome(gone) };
    },
  },
];

scenarios.push(
  {
    name: "cards: a programme, a card issued on it, read back, frozen",
    async run(ctx) {
      const coinplane = ctx.client();
      const programme = await coinplane.cards.createProgramme(exampleBody(specOp("createCardProgramme")) as never);
      const issue = { ...(exampleBody(specOp("issueCard")) as object), programmeId: programme.programmeId };
      const card = await coinplane.cards.issue(issue as never);
      expect(card.programmeId).toBe(programme.programmeId);
      expect(await coinplane.cards.retrieve(card.cardId)).toEqual(card);
      const frozen = await coinplane.cards.freeze(card.cardId, { reason: "lost" } as never);
      const read = await coinplane.cards.retrieve(card.cardId);
      expect(read).toMatchObject({ cardId: card.cardId, status: "frozen" });
      const unknown = await failure(coinplane.cards.issue({ ...issue, programmeId: "cprg_unknown0000" } as never));
      expect(unknown).toBeInstanceOf(NotFoundError);
      return {
        programme: members(programme),
        card: members(card),
        statuses: [card.status, frozen.status, read.status],
        limits: card.limits,
        unknownProgramme: errorOutcome(unknown),
      };
    },
  },
  {
    name: "a bank transfer is read back by its status call",
    async run(ctx) {
      const coinplane = ctx.client();
      const created = await coinplane.bankTransfers.create(exampleBody(specOp("createBankTransfer")) as never);
      const status = await coinplane.bankTransfers.status({
        transferId: created.id,
        senderJurisdiction: "DE",
        receiverJurisdiction: "FR",
      } as never);
      expect(status).toMatchObject({ id: created.id, amount: created.amount, currency: created.currency, reference: created.reference });
      return {
        members: members(created),
        statuses: [created.status, status.status],
        amount: created.amount,
        currency: created.currency,
        rail: created.rail,
      };
    },
  },
);

scenarios.push({
  name: "lists: created programmes, cards, transfers and projects come back newest first, across pages, filtered",
  async run(ctx) {
    const coinplane = ctx.client();
    // Both order by creation time (milliseconds), then id: a pause keeps two creations apart.
    const apart = () => new Promise((resolve) => setTimeout(resolve, 5));
    const programmeBody = exampleBody(specOp("createCardProgramme")) as { name: string };
    const programmes: string[] = [];
    for (const n of [1, 2]) {
      programmes.push((await coinplane.cards.createProgramme({ ...programmeBody, name: `Lists ${n}` } as never)).programmeId);
      await apart();
    }
    const example = exampleBody(specOp("issueCard")) as { cardholder: object };
    const issue = (programmeId: string, n: number) =>
      coinplane.cards
        .issue({ ...example, programmeId, cardholder: { ...example.cardholder, email: `lists.${n}@acme.example` } } as never)
        .then((c) => c.cardId);
    const cards: string[] = [];
    for (const [n, programmeId] of ([programmes[0], programmes[0], programmes[1]] as string[]).entries()) {
      cards.push(await issue(programmeId, n));
      await apart();
    }
    await coinplane.cards.freeze(cards[0] as string, { reason: "lost" } as never);
    const listed = await coinplane.cards.list({ limit: 1 }).toArray({ limit: 3 });
    expect(listed.map((c) => c.cardId)).toEqual([...cards].reverse());
    const ofFirst = await coinplane.cards.list({ programmeId: programmes[0] as string }).toArray();
    expect(ofFirst.map((c) => c.cardId)).toEqual([cards[1], cards[0]]);
    const frozen = await coinplane.cards.list({ programmeId: programmes[0] as string, status: "frozen" }).toArray();
    expect(frozen.map((c) => c.cardId)).toEqual([cards[0]]);
    const programmePage = await coinplane.cards.listProgrammes({ limit: 1 });
    expect(programmePage).toMatchObject({ hasMore: true, nextCursor: programmes[1] });
    const transfers: string[] = [];
    for (const reference of ["LIST-1", "LIST-2"]) {
      transfers.push(
        (await coinplane.bankTransfers.create({ ...(exampleBody(specOp("createBankTransfer")) as object), reference } as never)).id,
      );
      await apart();
    }
    const transferIds: string[] = [];
    for await (const transfer of coinplane.bankTransfers.list({ limit: 1 })) {
      transferIds.push(transfer.id);
      if (transferIds.length === 2) break;
    }
    expect(transferIds).toEqual([...transfers].reverse());
    const project = await coinplane.contracts.generate(exampleBody(specOp("generateContract")) as never);
    const [summary] = await coinplane.contracts.list({ stage: "generated" }).toArray({ limit: 1 });
    expect(summary?.projectId).toBe(project.projectId);
    const foreign = await failure(coinplane.cards.list({ startingAfter: "card_UnknownUnknownUnknown1" }));
    expect(foreign).toBeInstanceOf(BadRequestError);
    return {
      card: members(listed[0]),
      statuses: listed.map((c) => c.status),
      page: members(programmePage),
      programme: members(programmePage.data[0]),
      transfer: members(await coinplane.bankTransfers.list({ limit: 1 }).then((p) => p.data[0])),
      project: members(summary),
      foreign: errorOutcome(foreign),
    };
  },
});

const outcomes = new Map<string, Map<string, Outcome>>();

describe.each(targets)("$name", (target) => {
  let running: Running;
  let headers: Headers | undefined;
  const ctx: Context = {
    client(key: keyof Keys | string = "sandbox") {
      const apiKey = key in running.keys ? running.keys[key as keyof Keys] : key;
      return new Coinplane({
        apiKey,
        baseUrl: running.baseUrl,
        maxRetries: 0,
        fetch: async (input, init) => {
          const res = await globalThis.fetch(input, init);
          headers = res.headers;
          return res;
        },
      });
    },
    lastHeaders: () => headers,
  };

  beforeAll(async () => {
    running = await target.start();
    outcomes.set(target.name, new Map());
  }, 60_000);
  afterAll(() => running?.close());

  it.each(scenarios)("$name", async (scenario) => {
    outcomes.get(target.name)?.set(scenario.name, await scenario.run(ctx));
  });
});

describe("the mock answers as the server does", () => {
  const [server, ...mocks] = targets.map((t) => t.name);
  it.each(mocks.flatMap((mock) => scenarios.map((s) => [mock, s.name] as const)))("%s: %s", (mock, scenario) => {
    const expected = outcomes.get(server as string)?.get(scenario);
    expect(expected, `the server's run of "${scenario}"`).toBeDefined();
    expect(outcomes.get(mock)?.get(scenario)).toEqual(expected);
  });
});
