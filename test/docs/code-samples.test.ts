// Docs that run: every operation's curl sample (`x-codeSamples` in the bundled spec, scripts/code-samples.ts) runs
// verbatim with bash against a fresh sandbox after the one documented setup step (`npm run -s samples:setup`), and
// answers a status its operation documents as success. None is skipped: the order below is the reference's, except
// for the few samples listed that end a resource or decide a state another sample needs.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_VARIABLES } from "../../scripts/code-samples.ts";
import { operationMap } from "../../sdk/src/operation-map.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { specOperations } from "../helpers/spec-requests.ts";
import { bashBlocks, ROOT, type Sandbox, SCHEDULER_SECRET, startSandbox } from "./sandbox.ts";

interface Sample {
  lang: string;
  label: string;
  source: string;
}

const SETUP_COMMAND = 'eval "$(npm run -s samples:setup)"';

/** Samples that end a resource other samples use: they run after all the others. */
const RUN_LAST: Record<string, string> = {
  deactivateCard: "a deactivated card refuses limits, funds and authorizations",
  deleteWebhookEndpoint: "the endpoint's other samples would answer 404",
  adminRevokeApiKey: "kept with the admin samples at the end (it revokes $KEY_ID, not $KEY)",
};

/** Samples that need a state an earlier sample of the run consumed: the setup step runs again before them. */
const FRESH_SETUP: Record<string, string> = {
  rejectApprovalRequest: "approveApprovalRequest already decided $APPROVAL_ID",
  reverseCardAuthorization: "captureCardAuthorization already closed $AUTHORIZATION_ID",
};

const operations = specOperations(loadSpec());
const samplesOf = (op: (typeof operations)[number]) => (op.raw["x-codeSamples"] ?? []) as Sample[];
const ordered = [
  ...operations.filter((op) => !(op.operation.operationId in RUN_LAST)),
  ...operations.filter((op) => op.operation.operationId in RUN_LAST),
];

let sandbox: Sandbox;
let exports = "";

async function setUp(): Promise<string> {
  // What `eval "$(npm run -s samples:setup)"` evaluates: the printed export lines, kept to prefix each sample.
  const result = await sandbox.bash("npm run -s samples:setup");
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  exports = await setUp();
}, 180_000);
afterAll(() => sandbox?.close());

describe("code samples in the spec", () => {
  it("every operation has a curl sample, and an SDK sample when the SDK has its method", () => {
    for (const op of operations) {
      const labels = samplesOf(op).map((s) => s.label);
      expect(labels[0], op.operation.operationId).toBe("curl");
      const hasMethod = op.operation.operationId in operationMap;
      expect(labels.includes("SDK"), op.operation.operationId).toBe(hasMethod);
    }
  });

  it("the SDK sample calls the method of sdk/src/operation-map.ts", () => {
    for (const [operationId, [namespace, method]] of Object.entries(operationMap)) {
      const op = operations.find((o) => o.operation.operationId === operationId);
      const sdk = op && samplesOf(op).find((s) => s.label === "SDK");
      expect(sdk?.source, operationId).toContain(`coinplane.${namespace}.${method}(`);
    }
  });

  it("samples use only documented variables, and docs/getting-started.md documents each one", () => {
    const guide = readFileSync(path.join(ROOT, "docs/getting-started.md"), "utf8");
    expect(bashBlocks(guide)).toContain(`${SETUP_COMMAND}\n`);
    const used = new Set<string>();
    for (const op of operations) {
      for (const sample of samplesOf(op)) {
        for (const m of sample.source.matchAll(/\$([A-Z_]+)\b|process\.env\.([A-Z_]+)/g)) used.add((m[1] ?? m[2]) as string);
      }
    }
    for (const variable of used) expect(Object.keys(SAMPLE_VARIABLES), variable).toContain(variable);
    for (const variable of Object.keys(SAMPLE_VARIABLES)) expect(guide, variable).toContain(`\`${variable}\``);
  });

  it("the setup step exports every variable but SCHEDULER_SECRET (the server's own)", () => {
    const exported = [...exports.matchAll(/^export ([A-Z_]+)=/gm)].map((m) => m[1]);
    expect(exported.sort()).toEqual(
      Object.keys(SAMPLE_VARIABLES)
        .filter((v) => v !== "SCHEDULER_SECRET")
        .sort(),
    );
  });
});

describe("every curl sample runs verbatim after the setup step", () => {
  it.each(ordered.map((op) => [op.operation.operationId, op] as const))(
    "%s",
    async (operationId, op) => {
      if (operationId in FRESH_SETUP) exports = await setUp();
      const curl = samplesOf(op)[0] as Sample;
      // The scheduler secret is the server's configuration, not the setup's: the reader knows it as its operator.
      const result = await sandbox.bash(`${exports}\n${curl.source}`, { SCHEDULER_SECRET });
      const documented = Object.keys(op.raw.responses as object)
        .filter((status) => status.startsWith("2"))
        .map(Number);
      expect(result.statuses, `${curl.source}\n→ ${result.stdout}\n${result.stderr}`).toHaveLength(1);
      expect(documented, `${result.stdout}\n${result.stderr}`).toContain(result.statuses[0]);
    },
    60_000,
  );
});
