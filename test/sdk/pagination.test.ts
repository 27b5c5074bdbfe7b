// The SDK's paging follows the operation table's declared names (the spec's `x-pagination`), not fixed field names.
import { describe, expect, it } from "vitest";
import { operationTable } from "../../sdk/src/generated/operations.ts";
import { nextPageQuery, type Pagination, pageItems } from "../../sdk/src/pagination.ts";

const offset: Pagination = { kind: "offset", items: "rows", offsetParam: "skip", total: "size" };
const cursor: Pagination = { kind: "cursor", items: "rows", param: "from", nextCursor: "next", hasMore: "more" };
const cursorWithoutHasMore: Pagination = { kind: "cursor", items: "rows", param: "from", nextCursor: "next" };

describe("nextPageQuery", () => {
  it.each<[string, Pagination, Record<string, unknown>, Record<string, unknown>, Record<string, unknown> | undefined]>([
    ["offset: skips what was read", offset, { q: "x" }, { rows: [1, 2], size: 5 }, { q: "x", skip: 2 }],
    ["offset: from the sent offset", offset, { skip: "2" }, { rows: [3, 4], size: 5 }, { skip: 4 }],
    ["offset: stops at the total", offset, { skip: 3 }, { rows: [4, 5], size: 5 }, undefined],
    ["offset: without a total, until an empty page", { ...offset, total: undefined }, {}, { rows: [1] }, { skip: 1 }],
    ["offset: stops on an empty page", offset, {}, { rows: [], size: 5 }, undefined],
    ["offset: the undeclared `data` is not read", offset, {}, { data: [1, 2], size: 5 }, undefined],
    ["cursor: passes next as the cursor parameter", cursor, { limit: 2 }, { rows: [1], more: true, next: "c1" }, { limit: 2, from: "c1" }],
    ["cursor: stops when hasMore is false", cursor, {}, { rows: [1], more: false, next: "c1" }, undefined],
    ["cursor: stops without a next cursor", cursor, {}, { rows: [1], more: true, next: null }, undefined],
    ["cursor: without hasMore, follows the cursor", cursorWithoutHasMore, {}, { rows: [1], next: "c1" }, { from: "c1" }],
    [
      "cursor: a kept offset positions the first page only",
      { ...cursor, offsetParam: "skip" },
      { skip: 3, q: "x" },
      { rows: [4], more: true, next: "c4" },
      { q: "x", from: "c4" },
    ],
  ])("%s", (_name, pagination, query, page, next) => {
    expect(nextPageQuery(pagination, query, page)).toEqual(next);
  });
});

describe("pageItems", () => {
  it("reads the declared items field, and nothing when it is not an array", () => {
    expect(pageItems(offset, { rows: [1, 2] })).toEqual([1, 2]);
    expect(pageItems(offset, { rows: "no" })).toEqual([]);
  });
});

describe("the generated table", () => {
  it("declares every paged list the SDK iterates (from the spec's x-pagination)", () => {
    const paged = Object.entries(operationTable)
      .filter(([, op]) => op.pagination !== null)
      .map(([id, op]) => [id, op.pagination?.kind]);
    expect(paged).toEqual([
      ["listWallets", "offset"],
      ["listPayments", "offset"],
      ["listContractProjects", "cursor"],
      ["listApprovalRequests", "cursor"],
      ["listBankTransfers", "cursor"],
      ["listCustodyWallets", "cursor"],
      ["listCustodyTransfers", "cursor"],
      ["listIssuanceRequests", "cursor"],
      ["listCards", "cursor"],
      ["listCardProgrammes", "cursor"],
      ["listCardTransactions", "cursor"],
      ["listWebhookEndpoints", "cursor"],
      ["listWebhookDeliveries", "cursor"],
      ["listEvents", "cursor"],
      ["listMembers", "cursor"],
      ["listApiKeys", "cursor"],
      ["listAuditLogEntries", "cursor"],
    ]);
  });
});
