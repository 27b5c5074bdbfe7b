// The layer rules in .dependency-cruiser.cjs catch what they promise: a throwaway server/ tree with one import per case
// is cruised with the repository's configuration, and each case must produce exactly the violations listed.
import { beforeAll, describe, expect, it } from "vitest";
import { cruiseImports, type Violation } from "../helpers/cruise-imports.ts";

// [importing module, imported module, rules it breaks]. Upward, sideways and cyclic imports fail; downward ones pass.
const CASES: Array<[from: string, to: string, rules: string[]]> = [
  ["server/providers/acme.ts", "server/domain/payments/pay.ts", ["providers-points-down", "providers-not-to-domain"]],
  ["server/chain/evm.ts", "server/domain/chains/chain-rows.ts", ["providers-points-down"]],
  ["server/domain/payments/pay.ts", "server/routes/payment-handlers.ts", ["domain-points-down"]],
  ["server/domain/cards/issue.ts", "server/middleware/authenticate.ts", ["domain-points-down"]],
  ["server/domain/cards/freeze.ts", "server/http/respond.ts", ["domain-points-down"]],
  ["server/domain/payments/pay.ts", "server/webhooks/deliver.ts", ["domain-points-down"]],
  ["server/context.ts", "server/middleware/authenticate.ts", ["domain-points-down"]],
  ["server/domain/admin/token.ts", "server/admin-token.ts", ["domain-points-down"]],
  ["server/db/unit-of-work/run-unit.ts", "server/domain/cards/card-rows.ts", ["data-points-down"]],
  ["server/db/kysely.ts", "server/providers/registry.ts", ["data-points-down"]],
  ["server/db/migrate.ts", "server/routes/route.ts", ["data-points-down"]],
  ["server/idempotency/store.ts", "server/chain/evm.ts", ["data-points-down"]],
  ["server/lib/ids.ts", "server/errors/codes.ts", ["lib-imports-only-lib"]],
  ["server/lib/worker-pool.ts", "server/db/sql-runner.ts", ["base-points-down", "lib-imports-only-lib"]],
  ["server/errors/service-error.ts", "server/idempotency/store.ts", ["base-points-down"]],
  ["server/spec/operations.ts", "server/context.ts", ["base-points-down"]],
  ["server/routes/card-handlers.ts", "server/routes/payment-handlers.ts", ["no-sideways-route-files"]],
  ["server/routes/respond-helper.ts", "server/routes/v1-handlers.ts", ["no-sideways-route-files"]],
  ["server/routes/respond-or-503.ts", "server/providers/provider-adapter.ts", ["http-not-to-providers"]],
  ["server/middleware/chain-check.ts", "server/chain/sandbox-chain.ts", ["http-not-to-providers"]],
  ["server/scheduler/advance.ts", "server/routes/dispatch-handlers.ts", ["workers-points-down"]],
  ["server/webhooks/deliver.ts", "server/middleware/authenticate.ts", ["workers-points-down"]],
  ["server/http/in-flight.ts", "scripts/generate.ts", ["server-not-to-tools"]],
  ["server/domain/payments/list.ts", "sdk/src/pagination.ts", ["server-not-to-tools"]],
  // The MCP tool layer is the one client of the service the server mounts (/mcp); the rest of the SDK stays out.
  ["server/http/mcp-endpoint.ts", "sdk/src/mcp/index.ts", []],
  ["server/http/mcp-endpoint.ts", "sdk/src/client.ts", ["server-not-to-tools"]],
  ["server/generated/openapi.ts", "sdk/src/generated/openapi.ts", []],
  // The pure SDK modules the server shares (sdk/src/protocol/, sdk/src/sandbox/) import only each other.
  ["server/errors/codes.ts", "sdk/src/protocol/error-codes.ts", []],
  ["server/middleware/idempotency.ts", "sdk/src/protocol/idempotency-key.ts", []],
  ["sdk/src/protocol/error-codes.ts", "sdk/src/sandbox/usd-rates.ts", []],
  ["sdk/src/protocol/idempotency-key.ts", "sdk/src/mock/mock-state.ts", ["shared-sdk-modules-stay-pure"]],
  ["server/domain/payments/quote.ts", "sdk/src/sandbox/fx-quote.ts", []],
  ["sdk/src/sandbox/fx-quote.ts", "sdk/src/client.ts", ["shared-sdk-modules-stay-pure"]],
  ["server/domain/approvals/a.ts", "server/domain/approvals/b.ts", ["no-circular"]],
  ["server/domain/approvals/b.ts", "server/domain/approvals/a.ts", ["no-circular"]],
  // Downward, within one part, and the shared route modules: allowed.
  ["server/app.ts", "server/routes/card-handlers.ts", []],
  ["server/middleware/rate-limit.ts", "server/routes/dispatch.ts", []],
  ["server/routes/custody-handlers.ts", "server/routes/route.ts", []],
  ["server/routes/payment-handlers.ts", "server/routes/respond-helper.ts", []],
  ["server/routes/route.ts", "server/http/respond-with-unit-of-work.ts", []],
  ["server/routes/treasury-handlers.ts", "server/scheduler/dispatch.ts", []],
  ["server/routes/provider-handlers.ts", "server/domain/providers/provider-failures.ts", []],
  ["server/domain/custody/create.ts", "server/providers/capabilities/custody.ts", []],
  ["server/domain/access/api-keys.ts", "server/context.ts", []],
  ["server/providers/custody-sim.ts", "server/db/kysely2.ts", ["providers-storage-through-port"]],
  ["server/chain/evm.ts", "server/db/kysely.ts", ["providers-storage-through-port"]],
  // The modules that once had an exception (issue 28) reach their storage only through a port now: no exception left.
  ["server/providers/simulators/custody-simulator.ts", "server/db/kysely.ts", ["providers-storage-through-port"]],
  ["server/chain/sandbox-chain.ts", "server/db/unit-of-work/index.ts", ["providers-storage-through-port"]],
  ["server/providers/capabilities/custody.ts", "server/db/kysely.ts", ["providers-storage-through-port"]],
  ["server/providers/capabilities/treasury.ts", "server/db/kysely.ts", ["providers-storage-through-port"]],
  // A port is declared above and implemented below: the implementation may not import it (it matches it by shape).
  ["server/db/sandbox-chain-log-store.ts", "server/chain/sandbox-chain-log.ts", ["data-points-down"]],
  ["server/domain/custody/wire.ts", "server/db/simulated-custody-store.ts", []],
  ["server/providers/chain-reader.ts", "server/chain/evm.ts", []],
  ["server/providers/custody-sim.ts", "server/idempotency/store.ts", []],
  ["server/idempotency/store.ts", "server/db/tx.ts", []],
  ["server/db/runner.ts", "server/errors/classify.ts", []],
  ["server/errors/service-error.ts", "server/spec/operations.ts", []],
  ["server/lib/a.ts", "server/lib/b.ts", []],
];

/** A cycle is reported once, from whichever of its modules the cruise reached first: a case matches when both ends are
 * in the reported cycle. */
function matches(v: Violation, from: string, to: string): boolean {
  if (v.rule.name !== "no-circular") return v.from === from && v.to === to;
  const members = [v.from, ...(v.cycle ?? []).map((step) => step.name)];
  return members.includes(from) && members.includes(to);
}
let violations: Violation[] = [];

beforeAll(() => {
  violations = cruiseImports(CASES.map(([from, to]) => [from, to] as const));
}, 60_000);

describe("dependency rules (.dependency-cruiser.cjs)", () => {
  it.each(CASES)("%s → %s breaks %j", (from, to, rules) => {
    const broken = violations.filter((v) => matches(v, from, to)).map((v) => v.rule.name);
    expect(broken.sort()).toEqual([...rules].sort());
  });

  it("reports nothing but the listed cases", () => {
    const unexpected = violations.filter((v) => !CASES.some(([from, to, rules]) => rules.includes(v.rule.name) && matches(v, from, to)));
    expect(unexpected).toEqual([]);
  });
});
