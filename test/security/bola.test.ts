// OWASP API1:2023 Broken Object Level Authorization. Organization A creates one of every resource that an operation
// takes by id (in the path, the query or the body); organization B — a key with every scope, in the same environment,
// with the same provider connections — then calls every such operation with A's ids. Each answer must be exactly the
// answer for an id that does not exist (404 NOT_FOUND for path ids: never 403, which would confirm the id exists), and
// none of A's rows may change. The same sweep runs with A's own production key against A's sandbox resources.
// The list of id-taking operations is derived from the spec: a new one fails the coverage test until it is attacked
// here or excluded below with a reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardholderBody, createProgramme, fund, issueCard } from "../helpers/cards.ts";
import { launchToken, SIGNER, TREASURY } from "../helpers/contracts.ts";
import { corridor } from "../helpers/corridors.ts";
import { deciderWithKey } from "../helpers/members.ts";
import { byId, doc, expectError, idReferences, operations, organizationSnapshot, type Response, unknownLike } from "../helpers/security.ts";
import { exampleRequest } from "../helpers/spec-requests.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect, idem } from "../helpers/v2.ts";

const A = "org_sec_a";
const B = "org_sec_b";
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";

/** Id references that are not another organization's object, so there is nothing to attack. */
const EXCLUDED: Record<string, string> = {
  // `organizationId` is the caller's claim about itself, not a reference: any value but the key's own is 403 FORBIDDEN
  // by contract (the caller names its own organization; nothing of another is looked up).
  "*:body:organizationId": "the key's own organization; a mismatch is a documented 403",
  // Metric ids name entries of one fixed catalogue shared by every organization.
  "getMetric:path:metricId": "a catalogue name, not an object",
  // The admin API is the operator's: one global token, no tenant boundary to cross.
  "adminRevokeApiKey:path:id": "operator API",
  "adminDeleteConnection:path:id": "operator API",
  "adminGetOrganizationSettings:path:organizationId": "operator API",
  "adminUpdateOrganizationSettings:path:organizationId": "operator API",
  "adminListApiKeys:query:organizationId": "operator API",
  "adminListConnections:query:organizationId": "operator API",
  "adminCreateMemberInvitation:path:organizationId": "operator API",
};
const excluded = (operationId: string, ref: string) => `${operationId}:${ref}` in EXCLUDED || `*:${ref}` in EXCLUDED;

interface Attack {
  name: string;
  operationId: string;
  /** The id references this request exercises (`path:cardId`, `body:walletId`), as idReferences() names them. */
  refs: string[];
  /** Path parameters and body fields: values are keys of `ids` (A's objects) unless wrapped in `own()`. */
  path?: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  /** Send only `body` instead of merging it into the spec's example (another request shape of the operation). */
  replaceBody?: boolean;
  /** The answer for an unknown id, when not 404 NOT_FOUND (e.g. a body field checked as input: 400). */
  status?: number;
  /** The answer for an unknown id to a production key, when not `status` (sandbox-only card test helpers: 403). */
  productionStatus?: number;
  /** An object of the organization in every environment (members, API keys): not part of the production sweep. */
  organizationWide?: true;
}

/** Ids of A's objects by name, filled in beforeAll; B's own objects under `own:<name>`. */
const ids: Record<string, string> = {};
const id = (name: string) => ids[name] as string;
const ref = (name: string) => ({ ref: name });

const ATTACKS: Attack[] = [
  { name: "v1 wallet", operationId: "getWallet", refs: ["path:id"], path: { id: "wallet" } },
  { name: "v1 wallet balance", operationId: "getWalletBalance", refs: ["path:id"], path: { id: "wallet" } },
  { name: "v1 payment", operationId: "getPayment", refs: ["path:id"], path: { id: "payment" } },
  ...[
    "getContractProject",
    "compileContract",
    "validateContract",
    "simulateContract",
    "deployContract",
    "verifyContract",
    "launchContract",
  ].map((operationId) => ({ name: "contract project", operationId, refs: ["path:projectId"], path: { projectId: "project" } })),
  ...["getMember", "updateMember", "deleteMember"].map((operationId) => ({
    name: "member",
    operationId,
    refs: ["path:memberId"],
    path: { memberId: "member" },
    organizationWide: true as const,
  })),
  ...["getApiKey", "revokeApiKey"].map((operationId) => ({
    name: "API key",
    operationId,
    refs: ["path:keyId"],
    path: { keyId: "apiKey" },
    organizationWide: true as const,
  })),
  { name: "events of A's card", operationId: "listEvents", refs: ["query:resourceId"], query: { resourceId: "card" }, status: 200 },
  ...["getApprovalRequest", "approveApprovalRequest", "rejectApprovalRequest"].map((operationId) => ({
    name: "pending approval",
    operationId,
    refs: ["path:approvalRequestId"],
    path: { approvalRequestId: "transferApproval" },
  })),
  { name: "workflow run", operationId: "getCorridorWorkflowRun", refs: ["path:workflowRunId"], path: { workflowRunId: "workflowRun" } },
  {
    name: "issuer filter",
    operationId: "listIssuanceRequests",
    refs: ["query:issuerId"],
    query: { issuerId: "issuer" },
    // A filter narrows the caller's own list: an unknown issuer gives an empty page, and so must A's.
    status: 200,
  },
  // A filter narrows the caller's own list: another organization's wallet or programme lists what an unknown one does.
  {
    name: "custody wallet filter",
    operationId: "listCustodyTransfers",
    refs: ["query:walletId"],
    query: { walletId: "custodyWallet" },
    status: 200,
  },
  { name: "programme filter", operationId: "listCards", refs: ["query:programmeId"], query: { programmeId: "programme" }, status: 200 },
  {
    name: "issuance request",
    operationId: "getIssuanceRequest",
    refs: ["path:issuanceRequestId"],
    path: { issuanceRequestId: "issuanceRequest" },
  },
  ...[
    "getCard",
    "listCardTransactions",
    "fundCard",
    "freezeCard",
    "unfreezeCard",
    "deactivateCard",
    "updateCardLimits",
    "simulateCardAuthorization",
  ].map((operationId) => ({
    name: "card",
    operationId,
    refs: ["path:cardId"],
    path: { cardId: "card" },
    ...(operationId === "simulateCardAuthorization" ? { productionStatus: 403 } : {}),
  })),
  ...["captureCardAuthorization", "reverseCardAuthorization"].flatMap((operationId) => [
    {
      name: "card + authorization",
      operationId,
      refs: ["path:cardId"],
      path: { cardId: "card", authorizationId: "authorization" },
      productionStatus: 403,
    },
    // B's own card with A's authorization: the authorization must be looked up within the card, not by id alone.
    {
      name: "own card + A's authorization",
      operationId,
      refs: ["path:authorizationId"],
      path: { cardId: "own:card", authorizationId: "authorization" },
      productionStatus: 403,
    },
  ]),
  {
    name: "selection receipt",
    operationId: "invokeProvider",
    refs: ["body:selectionReceiptId"],
    body: { selectionReceiptId: ref("selectionReceipt") },
  },
  {
    name: "approved invocation approval",
    operationId: "invokeProvider",
    refs: ["body:approvalRequestId"],
    body: {
      providerSlug: "simulator",
      category: "custody",
      operation: "create_transfer",
      input: { walletId: "cw_sim_1", destination: CLEAN, asset: "USDC", amountMinor: "25000000" },
      regime: undefined, // the FX example's regime does not apply to custody
      approvalRequestId: ref("invokeApproval"),
    },
  },
  { name: "bank transfer", operationId: "getBankTransferStatus", refs: ["body:transferId"], body: { transferId: ref("bankTransfer") } },
  { name: "bank transfer", operationId: "cancelBankTransfer", refs: ["body:transferId"], body: { transferId: ref("bankTransfer") } },
  {
    name: "custody wallet as corridor source",
    operationId: "simulateCorridor",
    refs: ["body:custody.walletId"],
    body: { ...corridor(), custody: { asset: "USDC", chain: "base", walletId: ref("custodyWallet") } },
    // The wallet is validated as input: "must be an active custody wallet of the organization".
    status: 400,
  },
  {
    name: "pending custody wallet activation",
    operationId: "createCustodyWallet",
    refs: ["body:custodyWalletId", "body:approvalRequestId"],
    body: { custodyWalletId: ref("pendingWallet"), approvalRequestId: ref("pendingWalletApproval") },
    replaceBody: true,
  },
  {
    name: "custody wallet",
    operationId: "getCustodyWalletBalance",
    refs: ["body:walletId"],
    body: { walletId: ref("custodyWallet") },
  },
  {
    name: "custody wallet as transfer source",
    operationId: "createCustodyTransfer",
    refs: ["body:walletId"],
    body: { walletId: ref("custodyWallet") },
  },
  {
    name: "pending custody transfer submission",
    operationId: "createCustodyTransfer",
    refs: ["body:custodyTransferId", "body:approvalRequestId"],
    body: { custodyTransferId: ref("pendingTransfer"), approvalRequestId: ref("transferApproval") },
    replaceBody: true,
  },
  {
    name: "submitted custody transfer advance",
    operationId: "createCustodyTransfer",
    refs: ["body:custodyTransferId"],
    body: { custodyTransferId: ref("submittedTransfer"), expectedVersion: 3 },
    replaceBody: true,
  },
  {
    name: "custody transfer",
    operationId: "getCustodyTransferStatus",
    refs: ["body:custodyTransferId"],
    body: { custodyTransferId: ref("submittedTransfer") },
    replaceBody: true,
  },
  {
    name: "provider transfer id",
    operationId: "getCustodyTransferStatus",
    refs: ["body:transferId"],
    body: { transferId: ref("providerTransfer") },
    replaceBody: true,
  },
  { name: "issuer", operationId: "requestMint", refs: ["body:issuerId"], body: { issuerId: ref("issuer") } },
  { name: "issuer", operationId: "requestBurn", refs: ["body:issuerId"], body: { issuerId: ref("issuer") } },
  {
    name: "card programme",
    operationId: "issueCard",
    refs: ["body:programmeId"],
    body: { programmeId: ref("programme"), cardholder: cardholderBody() },
    replaceBody: true,
  },
  ...[
    "getWebhookEndpoint",
    "updateWebhookEndpoint",
    "deleteWebhookEndpoint",
    "rotateWebhookEndpointSecret",
    "sendTestWebhookEvent",
    "listWebhookDeliveries",
  ].map((operationId) => ({ name: "webhook endpoint", operationId, refs: ["path:endpointId"], path: { endpointId: "webhookEndpoint" } })),
  {
    name: "webhook endpoint + delivery",
    operationId: "retryWebhookDelivery",
    refs: ["path:endpointId"],
    path: { endpointId: "webhookEndpoint", deliveryId: "webhookDelivery" },
  },
  // B's own endpoint with A's delivery: the delivery must be looked up within the endpoint, not by id alone.
  {
    name: "own endpoint + A's delivery",
    operationId: "retryWebhookDelivery",
    refs: ["path:deliveryId"],
    path: { endpointId: "own:webhookEndpoint", deliveryId: "webhookDelivery" },
  },
  { name: "event", operationId: "getEvent", refs: ["path:eventId"], path: { eventId: "event" } },
  {
    name: "cardholder (on B's own programme)",
    operationId: "issueCard",
    refs: ["body:cardholderId"],
    body: { programmeId: ref("own:programme"), cardholderId: ref("cardholder") },
    replaceBody: true,
  },
];

/** Builds the request: the spec's example for the operation, with the attack's path ids and body fields (ids looked
 * up in `ids`, or replaced by an unknown id of the same shape), and no organizationId (B would be refused for naming
 * A, which is not the point here). */
function build(attack: Attack, unknown: boolean) {
  const op = byId(attack.operationId);
  const example = exampleRequest(doc, op);
  const lookup = (name: string) => {
    const value = ids[name];
    if (!value) throw new Error(`no id ${name}`);
    return unknown && !name.startsWith("own:") ? unknownLike(value) : value;
  };
  let path = op.operation.pathTemplate;
  for (const [param, name] of Object.entries(attack.path ?? {})) path = path.replace(`{${param}}`, lookup(name));
  if (attack.query) path += `?${new URLSearchParams(Object.entries(attack.query).map(([k, name]): [string, string] => [k, lookup(name)]))}`;
  const fill = (value: unknown): unknown => {
    if (value && typeof value === "object" && "ref" in value) return lookup((value as { ref: string }).ref);
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  let body = example.body as Record<string, unknown> | undefined;
  if (attack.body) body = { ...(attack.replaceBody ? {} : body), ...(fill(attack.body) as Record<string, unknown>) };
  if (body) delete body.organizationId;
  if (body) for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return { method: op.operation.method, path, body, headers: op.operation.idempotency === "none" ? {} : idem() };
}

let server: TestServer;
let alice: ReturnType<typeof api>;
let bob: Awaited<ReturnType<typeof deciderWithKey>>;
let mallory: ReturnType<typeof api>;
let aliceProduction: ReturnType<typeof api>;
let aliceProductionKeyId: string;

async function ok(res: Response, status = 201) {
  expect(res.status, res.text).toBe(status);
  return res.json;
}

beforeAll(async () => {
  // Response validation off: compiling each operation's response validators costs ~0.4 s of CPU, and the answers
  // asserted here are error shapes checked by expectError (test/http runs every operation with it on).
  server = await startTestServer({ env: { VALIDATE_RESPONSES: "false" } });
  const key = async (organizationId: string, actor: string, environment: "sandbox" | "production" = "sandbox") =>
    server.createKey({ organizationId, environment, scopes: ALL_WRITE_SCOPES, actor });
  alice = api(server.url, (await key(A, "alice")).key);
  bob = await deciderWithKey(server, A, (await key(A, "bob")).key);
  // B's attacker decides approvals and manages members and keys as a person (an owner with a second factor), the way
  // those operations are called; everything else with B's key.
  const malloryKey = await deciderWithKey(server, B, (await key(B, "mallory")).key, { role: "owner" });
  const PEOPLE = /^\/api\/v2\/agent\/(members|api-keys)(\/|\?|$)/;
  mallory = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    PEOPLE.test(path) ? malloryKey.member.call(method, path, body, headers) : malloryKey(method, path, body, headers);
  const production = await key(A, "alice", "production");
  // A's own approver decides in production with A's production key's environment: A's sandbox approvals are not there.
  aliceProduction = await deciderWithKey(server, A, production.key, { member: bob.member });
  aliceProductionKeyId = production.id;
  ids.member = bob.member.id;
  ids.apiKey = production.id;
  // Both organizations get the same connections, so B's calls get past "not connected" (424) and reach the lookup of
  // the object. A's production key gets none: a simulator cannot be connected for production (the admin API refuses).
  for (const [organizationId, environment] of [
    [A, "sandbox"],
    [B, "sandbox"],
  ] as const)
    for (const category of ["custody", "fx", "bank_transfer", "compliance_screening", "card_issuance", "chain_read", "token_issuance"])
      await connect(server, { organizationId, environment, category });

  ids.wallet = (await ok(await alice("POST", "/api/v1/wallets", { chain: "base" }))).id;
  ids.payment = (
    await ok(await alice("POST", "/api/v1/payments", { amount: "1.00", stablecoin: "USDC", chain: "base", toAddress: CLEAN }))
  ).id;

  const token = await launchToken(alice);
  ids.project = token.projectId;
  ids.issuer = token.issuerId;
  const mint = { issuerId: token.issuerId, amountMinor: "1000000", signerAddress: SIGNER, to: TREASURY, reason: "top-up" };
  ids.issuanceRequest = (await ok(await alice("POST", "/api/v2/agent/treasury/mint", mint, idem()))).issuanceRequestId;

  const run = await ok(await alice("POST", "/api/v2/agent/payments/corridor/simulate", corridor(), idem()), 202);
  ids.workflowRun = run.workflowRunId;
  ids.bankTransfer = (
    await ok(await alice("POST", "/api/v2/agent/payments/bank-transfer", exampleRequest(doc, byId("createBankTransfer"), A).body, idem()))
  ).id;

  // Custody: an active wallet, a pending wallet, a transfer awaiting approval and a submitted one.
  const WALLETS = "/api/v2/agent/custody/wallets";
  const TRANSFERS = "/api/v2/agent/custody/transfers";
  const approve = async (id: string) => ok(await bob("POST", `/api/v2/agent/approvals/${id}/approve`, {}), 200);
  const requested = await ok(await alice("POST", WALLETS, { label: "Ops", chain: "base", type: "mpc" }, idem()));
  await approve(requested.approvalRequestId);
  ids.custodyWallet = (
    await ok(
      await alice("POST", WALLETS, { custodyWalletId: requested.custodyWalletId, approvalRequestId: requested.approvalRequestId }, idem()),
      200,
    )
  ).custodyWalletId;
  const pendingWallet = await ok(await alice("POST", WALLETS, { label: "Pending", chain: "base", type: "mpc" }, idem()));
  ids.pendingWallet = pendingWallet.custodyWalletId;
  ids.pendingWalletApproval = pendingWallet.approvalRequestId;
  const transfer = { walletId: ids.custodyWallet, destination: CLEAN, asset: "USDC", amountMinor: "1000000" };
  const pending = await ok(await alice("POST", TRANSFERS, transfer, idem()));
  ids.pendingTransfer = pending.custodyTransferId;
  ids.transferApproval = pending.approvalRequestId;
  const second = await ok(await alice("POST", TRANSFERS, transfer, idem()));
  await approve(second.approvalRequestId);
  const submitted = await ok(
    await alice("POST", TRANSFERS, { custodyTransferId: second.custodyTransferId, approvalRequestId: second.approvalRequestId }, idem()),
    200,
  );
  ids.submittedTransfer = submitted.custodyTransferId;
  ids.providerTransfer = submitted.transferId;

  // Providers: a selection receipt and an approved (not yet used) invocation approval.
  ids.selectionReceipt = (
    await ok(await alice("POST", "/api/v2/agent/providers/select", { category: "fx", operation: "quote" }))
  ).selectionReceiptId;
  const invoke = {
    providerSlug: "simulator",
    category: "custody",
    operation: "create_transfer",
    input: { walletId: "cw_sim_1", destination: CLEAN, asset: "USDC", amountMinor: "25000000" },
  };
  ids.invokeApproval = (await ok(await alice("POST", "/api/v2/agent/providers/invoke", invoke, idem()), 202)).approvalRequestId;
  await approve(id("invokeApproval"));

  // Cards: a programme, a funded card with a pending authorization; B's own programme and card.
  ids.programme = await createProgramme(alice);
  const card = await ok(
    await alice("POST", "/api/v2/agent/cards/issue", { programmeId: ids.programme, cardholder: cardholderBody() }, idem()),
  );
  ids.card = card.cardId;
  ids.cardholder = card.cardholderId;
  await fund(alice, id("card"), "100.00");
  ids.authorization = (
    await ok(await alice("POST", `/api/v2/agent/cards/${ids.card}/test-helpers/authorizations`, { amount: "5.00" }, idem()))
  ).authorizationId;
  ids["own:programme"] = await createProgramme(mallory);
  ids["own:card"] = await issueCard(mallory, id("own:programme"));

  // Webhooks: an endpoint with a test event and its (pending: no worker runs here) delivery; B's own endpoint.
  const endpoint = { url: "http://localhost:9/hooks", enabledEvents: ["card.issued"] };
  ids.webhookEndpoint = (await ok(await alice("POST", "/api/v2/agent/webhook-endpoints", endpoint, idem()))).id;
  ids.event = (await ok(await alice("POST", `/api/v2/agent/webhook-endpoints/${ids.webhookEndpoint}/test`, undefined, idem()), 202)).id;
  ids.webhookDelivery = (
    await server.db.kysely
      .selectFrom("WebhookDelivery")
      .select("id")
      .where("endpointId", "=", id("webhookEndpoint"))
      .executeTakeFirstOrThrow()
  ).id;
  ids["own:webhookEndpoint"] = (await ok(await mallory("POST", "/api/v2/agent/webhook-endpoints", endpoint, idem()))).id;
}, 120_000);
afterAll(() => server?.close());

describe("coverage", () => {
  it("every id reference in the spec is attacked below or excluded with a reason", () => {
    const attacked = new Set(ATTACKS.flatMap((a) => a.refs.map((r) => `${a.operationId}:${r}`)));
    const missing = operations.flatMap((op) =>
      idReferences(op)
        .filter((r) => !excluded(op.operation.operationId, r) && !attacked.has(`${op.operation.operationId}:${r}`))
        .map((r) => `${op.operation.operationId} ${r}`),
    );
    expect(missing).toEqual([]);
    // And the attack list names only references the spec has (a renamed parameter must not leave a dead attack).
    const known = new Set(operations.flatMap((op) => idReferences(op).map((r) => `${op.operation.operationId}:${r}`)));
    expect([...attacked].filter((a) => !known.has(a))).toEqual([]);
  });
});

async function sweep(caller: () => ReturnType<typeof api>, attacks: Attack[], production = false) {
  // A's production key records its own production activity and idempotency outcomes: compare A's sandbox objects.
  // A's approver decides there too (approve/reject go through a session): its own refused-decision records are left out.
  const scope = production ? { environment: "sandbox", exceptApiKeyId: [aliceProductionKeyId, bob.member.id] } : {};
  const before = await organizationSnapshot(server, A, scope);
  const failures: string[] = [];
  for (const attack of attacks) {
    const label = `${attack.operationId} (${attack.name})`;
    const onUnknown = build(attack, true);
    const onTheirs = build(attack, false);
    const unknown = await caller()(onUnknown.method, onUnknown.path, onUnknown.body, onUnknown.headers);
    const theirs = await caller()(onTheirs.method, onTheirs.path, onTheirs.body, onTheirs.headers);
    const expected = (production ? attack.productionStatus : undefined) ?? attack.status ?? 404;
    // Production has no provider connection (no live adapter of these categories exists): a provider-backed operation
    // fails closed before any lookup, which answers A's id and an unknown one alike.
    const failsClosed = production && unknown.status === 424 && unknown.json?.code === "PROVIDER_NOT_CONNECTED";
    if (unknown.status !== expected && !failsClosed) failures.push(`${label}: an unknown id answered ${unknown.status} ${unknown.text}`);
    else if (theirs.status !== unknown.status || theirs.json?.code !== unknown.json?.code)
      failures.push(`${label}: A's id answered ${theirs.status} ${theirs.text}, an unknown one ${unknown.status} ${unknown.json?.code}`);
    else if (failsClosed) continue;
    else if (expected === 404) expectError(theirs, 404, "NOT_FOUND", onTheirs.path);
    else if (expected === 200 && JSON.stringify(theirs.json) !== JSON.stringify(unknown.json))
      failures.push(`${label}: A's id listed ${theirs.text}, an unknown one ${unknown.text}`);
  }
  expect(failures).toEqual([]);
  expect(await organizationSnapshot(server, A, scope)).toEqual(before);
}

describe("another organization (all scopes, same environment)", () => {
  it("gets exactly the unknown-id answer (404 for path ids) on every operation with each of A's ids, and changes nothing", async () => {
    await sweep(() => mallory, ATTACKS);
  });
});

describe("the same organization's production key on sandbox objects", () => {
  // v1 is sandbox-only: a production key gets the documented 403 before any lookup (test/http/auth.test.ts).
  const v2 = ATTACKS.filter((a) => byId(a.operationId).operation.surface === "v2" && !a.organizationWide);

  it("gets exactly the unknown-id answer on every v2 operation, and changes nothing", async () => {
    await sweep(() => aliceProduction, v2, true);
  });
});

describe("afterwards", () => {
  it("A's objects are intact and still usable by A (the approval B tried to use or decide is still A's)", async () => {
    const approval = await alice("GET", `/api/v2/agent/approvals/${ids.transferApproval}`);
    expect(approval.json).toMatchObject({ status: "pending", version: 1 });
    expect((await alice("GET", `/api/v2/agent/cards/${ids.card}`)).json.status).toBe("active");
    const used = await alice(
      "POST",
      "/api/v2/agent/providers/invoke",
      {
        providerSlug: "simulator",
        category: "custody",
        operation: "create_transfer",
        input: { walletId: "cw_sim_1", destination: CLEAN, asset: "USDC", amountMinor: "25000000" },
        approvalRequestId: ids.invokeApproval,
      },
      idem(),
    );
    expect(used.status, used.text).toBe(200);
  });
});
