// The response check used by every test/http server and by the validating proxy: it must catch what it claims to.
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { type ObservedResponse, ResponseContract } from "../helpers/response-contract.ts";

const contract = new ResponseContract(loadSpec());
const RATE = {
  "x-ratelimit-limit": "600",
  "x-ratelimit-remaining": "599",
  "x-ratelimit-reset": "60",
  ratelimit: '"default";r=599;t=60',
  "ratelimit-policy": '"default";q=600;w=60',
};
const wallet = {
  id: "wal_2YVq9M3bR6t8KxW1pZ7cNd",
  address: "0x52908400098527886E0F7030069857D2E4169EE7",
  chain: "base",
  label: null,
  balance: "3000.00",
  createdAt: "2026-11-22T10:15:30.000Z",
};
const created: ObservedResponse = {
  method: "POST",
  path: "/api/v1/wallets",
  status: 201,
  headers: {
    "x-request-id": "req_01JD6Z3W3F7K9Q2V8X4M5N6P7R",
    "cache-control": "no-store",
    "content-type": "application/json; charset=utf-8",
    ...RATE,
  },
  body: JSON.stringify(wallet),
};
const problems = (r: ObservedResponse) => (contract.check(r) ?? []).map((f) => f.problem);

describe("response contract check", () => {
  it("accepts a response that keeps the contract", () => {
    expect(problems(created)).toEqual([]);
  });

  it("flags an undeclared status", () => {
    expect(problems({ ...created, status: 418 })).toEqual([expect.stringMatching(/^status 418 is not declared/)]);
    // createWallet answers no 404: it looks nothing up.
    expect(problems({ ...created, status: 404 })[0]).toMatch(/status 404 is not declared/);
  });

  it("flags an undeclared header and a missing required one", () => {
    expect(problems({ ...created, headers: { ...created.headers, "x-debug": "1" } })).toEqual(["header x-debug is not declared"]);
    const { "x-ratelimit-limit": _, ...withoutLimit } = created.headers;
    expect(problems({ ...created, headers: withoutLimit })).toEqual(["required header X-RateLimit-Limit is missing"]);
  });

  it("flags a header value its schema refuses", () => {
    expect(problems({ ...created, headers: { ...created.headers, "x-ratelimit-remaining": "-1" } })[0]).toMatch(
      /^header x-ratelimit-remaining: "-1"/,
    );
    expect(problems({ ...created, headers: { ...created.headers, "cache-control": "max-age=60" } })[0]).toMatch(/^header cache-control/);
  });

  it("flags a body off its schema", () => {
    expect(problems({ ...created, body: JSON.stringify({ ...wallet, chain: "tron" }) })[0]).toMatch(/chain/);
  });

  it("ignores HTTP framing and helmet's headers, and requests that match no operation", () => {
    expect(problems({ ...created, headers: { ...created.headers, "x-frame-options": "SAMEORIGIN", date: "now" } })).toEqual([]);
    expect(contract.check({ ...created, path: "/api/v1/nope" })).toBeUndefined();
  });
});
