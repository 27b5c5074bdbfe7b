// Every operation of the spec (except the operator API and health probes) is reachable through an SDK method, under
// exactly one name; the generated operation table agrees with the spec (Idempotency-Key rule, method, path).
import { describe, expect, it } from "vitest";
import { operationTable } from "../../sdk/src/generated/operations.ts";
import { Coinplane, operationMap } from "../../sdk/src/index.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { OperationIndex } from "../../server/spec/operations.ts";

const operations = new OperationIndex(loadSpec()).all;
// Path slots reserved for work in progress (operationId `placeholder_…`) are not operations yet.
const sdkOperations = operations.filter((op) => !["admin", "health"].includes(op.surface) && !op.operationId.startsWith("placeholder_"));
const map = operationMap as Record<string, readonly [string, string]>;

describe("SDK coverage of the spec", () => {
  it.each(sdkOperations.map((op) => [op.operationId, op] as const))("%s has an SDK method", (operationId, op) => {
    const entry = map[operationId];
    expect(entry, `add ${operationId} (${op.method} ${op.pathTemplate}) to sdk/src/operation-map.ts`).toBeDefined();
    const [namespace, method] = entry as readonly [string, string];
    const client = new Coinplane({ apiKey: "cp_sandbox_x", baseUrl: "http://localhost" }) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    expect(typeof client[namespace]?.[method]).toBe("function");
  });

  it("maps only operations of the spec, each to a distinct method", () => {
    const ids = new Set(sdkOperations.map((op) => op.operationId));
    for (const id of Object.keys(map)) expect(ids.has(id), `${id} is not an operation of the spec`).toBe(true);
    const names = Object.values(map).map(([ns, m]) => `${ns}.${m}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it("uses the namespaces of the issue", () => {
    const namespaces = new Set(Object.values(map).map(([ns]) => ns));
    for (const ns of [
      "wallets",
      "payments",
      "balances",
      "metrics",
      "bankTransfers",
      "corridors",
      "custody",
      "treasury",
      "cards",
      "contracts",
      "providers",
      "approvals",
      "compliance",
    ]) {
      expect(namespaces.has(ns), ns).toBe(true);
    }
  });

  it.each(operations.map((op) => [op.operationId, op] as const))("the generated table agrees with the spec for %s", (operationId, op) => {
    expect((operationTable as Record<string, unknown>)[operationId]).toMatchObject({
      method: op.method,
      path: op.pathTemplate,
      idempotency: op.idempotency,
    });
  });
});
