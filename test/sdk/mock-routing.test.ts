// The partner mock routes a path as the server does, both running sdk/src/protocol/path-templates.ts: over the real
// spec, every case below gets the same operation and parameters, the same 405 methods, the same 404 and the same
// refused parameter from the server's operation index and the mock's route table.
import { describe, expect, it } from "vitest";
import { mockData } from "../../sdk/src/generated/mock-data.ts";
import { RouteTable } from "../../sdk/src/mock/routes.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { OperationIndex, type OperationMatch } from "../../server/spec/operations.ts";

const server = new OperationIndex(loadSpec());
const mock = new RouteTable(mockData.operations);

/** The server's answer in the mock's terms. */
function serverRoute(match: OperationMatch) {
  if (match.kind === "found") return { operationId: match.operation.operationId, params: match.params };
  if (match.kind === "malformed_path") return { malformed: match.param };
  return { allowed: match.kind === "method_not_allowed" ? [...match.allowed].sort() : [] };
}

describe("the mock routes as the server does", () => {
  it.each([
    ["POST", "/api/v2/agent/cards/issue"],
    // A literal template decides its own path: GET on /cards/issue is 405, not a card named "issue".
    ["GET", "/api/v2/agent/cards/issue"],
    ["GET", "/api/v2/agent/contracts/generate"],
    ["GET", "/api/v2/agent/cards/card_123"],
    ["GET", "/api/v2/agent/cards/card_123/"],
    ["HEAD", "/api/v2/agent/cards/card_123"],
    ["DELETE", "/api/v2/agent/cards/card_123"],
    ["GET", "/api/v2/agent/cards/caf%C3%A9"],
    ["GET", "/api/v2/agent/cards/%E0%A4%A"],
    ["GET", "/api/v2/agent/cards/a%00b"],
    ["GET", "/api/v2/agent/nothing-here"],
    ["POST", "/api/v1/wallets"],
  ])("%s %s", (method, path) => {
    const fromMock = mock.match(method, path);
    const expected = serverRoute(server.match(method, path));
    expect("allowed" in fromMock ? { allowed: [...fromMock.allowed].sort() } : fromMock).toEqual(expected);
  });
});
