import { describe, expect, it } from "vitest";
import { loadSpec, type OpenApiDocument } from "../../server/spec/load-spec.ts";
import { OperationIndex, surfaceOf } from "../../server/spec/operations.ts";

const op = (operationId: string, extra: Record<string, unknown> = {}) => ({ operationId, responses: {}, ...extra });

// A small spec where a literal segment and a parameter compete for the same position.
const doc: OpenApiDocument = {
  openapi: "3.1.0",
  security: [{ apiKey: [] }],
  paths: {
    "/api/v2/agent/cards/{cardId}": { get: op("getCard", { security: [{ apiKey: ["cards:read"] }] }) },
    "/api/v2/agent/cards/issue": {
      post: op("issueCard", {
        security: [{ apiKey: ["cards:write"] }],
        parameters: [{ $ref: "#/components/parameters/IdempotencyKeyRequired" }],
      }),
    },
    "/api/v2/agent/cards/{cardId}/fund": { post: op("fundCard") },
    "/api/v1/wallets": { get: op("listWallets"), post: op("createWallet", { parameters: [{ name: "Idempotency-Key", in: "header" }] }) },
    "/healthz": { get: op("getHealth", { security: [] }) },
  },
  components: { parameters: { IdempotencyKeyRequired: { name: "Idempotency-Key", in: "header", required: true } } },
};
const index = new OperationIndex(doc);

describe("OperationIndex.match", () => {
  it.each([
    ["POST", "/api/v2/agent/cards/issue", "issueCard", {}],
    ["GET", "/api/v2/agent/cards/card_123", "getCard", { cardId: "card_123" }],
    ["GET", "/api/v2/agent/cards/card_123/", "getCard", { cardId: "card_123" }],
    ["GET", "/api/v2/agent/cards/a%20b", "getCard", { cardId: "a b" }],
    ["POST", "/api/v2/agent/cards/issue/fund", "fundCard", { cardId: "issue" }],
    ["HEAD", "/api/v1/wallets", "listWallets", {}],
    ["POST", "/api/v1/wallets", "createWallet", {}],
  ])("%s %s → %s %o", (method, path, operationId, params) => {
    const match = index.match(method, path);
    expect(match.kind).toBe("found");
    if (match.kind !== "found") return;
    expect(match.operation.operationId).toBe(operationId);
    expect(match.params).toEqual(params);
  });

  it.each([
    // The literal path wins even for a method only the parameter path has: /cards/issue is not a card id.
    ["GET", "/api/v2/agent/cards/issue", ["POST"]],
    ["DELETE", "/api/v2/agent/cards/card_123", ["GET"]],
    ["DELETE", "/api/v1/wallets", ["GET", "POST"]],
    ["PUT", "/api/v1/wallets/", ["GET", "POST"]],
  ])("%s %s → 405, allowed %o", (method, path, allowed) => {
    const match = index.match(method, path);
    expect(match).toMatchObject({ kind: "method_not_allowed", allowed });
  });

  it.each([
    ["GET", "/api/v2/agent/cards"],
    ["GET", "/api/v2/agent/cards/a/b"],
    ["GET", "/api/v1/wallets/extra"],
    ["GET", "/api/v1/walletsx"],
    ["GET", "/API/V1/WALLETS"],
    ["GET", "/"],
  ])("%s %s → 404", (method, path) => {
    expect(index.match(method, path).kind).toBe("not_found");
  });

  it.each(["/api/v2/agent/cards/%E0%A4%A", "/api/v2/agent/cards/%ZZ", "/api/v2/agent/cards/card%00x", "/api/v2/agent/cards/%ED%A0%80"])(
    "%s → malformed_path (400), never a thrown URIError",
    (path) => {
      expect(index.match("GET", path)).toMatchObject({ kind: "malformed_path", param: "cardId" });
    },
  );
});

describe("Operation metadata", () => {
  it.each([
    ["issueCard", { security: "apiKey", scopes: ["cards:write"], idempotency: "required", surface: "v2", sandboxOnly: false }],
    ["getCard", { security: "apiKey", scopes: ["cards:read"], idempotency: "none", surface: "v2" }],
    ["fundCard", { security: "apiKey", scopes: [], idempotency: "none" }],
    ["createWallet", { idempotency: "optional", surface: "v1", sandboxOnly: true }],
    ["getHealth", { security: "none", scopes: [], surface: "health" }],
  ])("%s", (operationId, expected) => {
    expect(index.byId(operationId)).toMatchObject(expected);
  });

  it.each([
    ["/api/v1/wallets", "v1"],
    ["/api/v2/agent/cards/issue", "v2"],
    ["/api/metric/payments.count", "metric"],
    ["/api/admin/keys", "admin"],
    ["/healthz", "health"],
    ["/openapi.json", "health"],
  ])("surfaceOf(%s) = %s", (path, surface) => {
    expect(surfaceOf(path)).toBe(surface);
  });
});

describe("against the bundled spec", () => {
  const real = new OperationIndex(loadSpec());
  it.each([
    ["POST", "/api/v2/agent/cards/issue", "issueCard"],
    ["POST", "/api/v2/agent/cards/programmes", "createCardProgramme"],
    ["GET", "/api/v2/agent/cards/card_abc", "getCard"],
    ["GET", "/api/v2/agent/cards/card_abc/transactions", "listCardTransactions"],
    ["POST", "/api/v2/agent/payments/bank-transfer/status", "getBankTransferStatus"],
    ["POST", "/api/v2/agent/payments/corridor/workflows/dispatch", "dispatchCorridorWorkflows"],
    ["GET", "/api/v2/agent/payments/corridor/workflows/wfr_abc", "getCorridorWorkflowRun"],
    ["GET", "/api/v1/wallets/wal_1/balance", "getWalletBalance"],
    ["GET", "/api/metric/payments.count", "getMetric"],
  ])("%s %s → %s", (method, path, operationId) => {
    const match = real.match(method, path);
    expect(match.kind === "found" && match.operation.operationId).toBe(operationId);
  });

  it.each([
    ["createBankTransfer", { security: "apiKey", scopes: ["payments:write"], idempotency: "required" }],
    ["getBankTransferStatus", { idempotency: "optional" }],
    ["getCard", { scopes: ["cards:read"], idempotency: "none" }],
    ["createPayment", { scopes: ["payments:write"], idempotency: "optional", sandboxOnly: true }],
    ["getMetric", { scopes: ["analytics:read"], sandboxOnly: false, surface: "metric" }],
    ["dispatchCorridorWorkflows", { security: "schedulerSecret" }],
    ["adminCreateApiKey", { security: "adminToken", surface: "admin" }],
    ["getHealth", { security: "none" }],
  ])("%s carries %o", (operationId, expected) => {
    expect(real.byId(operationId)).toMatchObject(expected);
  });

  it("every v1 operation is sandbox-only and needs a key with a scope", () => {
    const v1 = real.all.filter((o) => o.surface === "v1");
    expect(v1).toHaveLength(8);
    for (const o of v1)
      expect(o).toMatchObject({
        sandboxOnly: true,
        security: "apiKey",
        scopes: [expect.stringMatching(/^(wallets|payments):(read|write)$/)],
      });
  });
});
