// Docs that run: every operation's curl sample (`x-codeSamples` in the bundled spec, scripts/code-samples.ts) runs
// verbatim with bash against a fresh sandbox after the one documented setup step (`npm run -s samples:setup`), and
// answers a status its operation documents as success. None is skipped: the order below is the reference's, except
// for the few samples listed that end a resource or decide a state another sample needs.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
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

const run = promisify(execFile);
const SETUP_COMMAND = 'eval "$(npm run -s samples:setup)"';

/** Samples that end a resource other samples use: they run after all the others. */
const RUN_LAST: Record<string, string> = {
  deactivateCard: "a deactivated card refuses limits, funds and authorizations",
  deleteWebhookEndpoint: "the endpoint's other samples would answer 404",
  adminRevokeApiKey: "kept with the admin samples at the end (it revokes $KEY_ID, not $KEY)",
  deleteAllSessions: "it signs out $SESSION, which the other session samples use",
  deleteCurrentSession: "it signs out $SESSION, which the other session samples use",
  deleteMember: "it removes $MEMBER_ID, which the getMember and updateMember samples use",
};

/** Samples that need a state an earlier sample of the run consumed: the setup step runs again before them. */
const FRESH_SETUP: Record<string, string> = {
  rejectApprovalRequest: "approveApprovalRequest already decided $APPROVAL_ID",
  reverseCardAuthorization: "captureCardAuthorization already closed $AUTHORIZATION_ID",
  deleteCurrentSession: "deleteAllSessions already signed out $SESSION",
  deleteMember: "it runs last, after the sign-out samples ended $SESSION",
  confirmTotpEnrollment: "$TOTP_CODE lasts about 30 s: the setup computes a current one",
};

/**
 * SDK samples that do not type-check although the API accepts them (their curl twin runs above): the SDK's generated
 * types (openapi-typescript's default `defaultNonNullable`) make a request field that has a `default` required.
 */
const SDK_TYPE_GAPS: Record<string, string> = {
  rotateWebhookEndpointSecret: "the body {} is valid (overlapSeconds defaults to 86400) but the SDK type requires overlapSeconds",
  runTreasuryStressTest: 'scenario.pegDeviation defaults to "0" but the SDK type requires it',
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

describe("the SDK samples", () => {
  /** The exported variables, as `eval` would leave them in the environment of a program started afterwards. */
  const environment = () => Object.fromEntries([...exports.matchAll(/^export ([A-Z_]+)='([^']*)'$/gm)].map((m) => [m[1], m[2]]));

  it("type-check against the SDK (each one a module of its own, as a reader would save it)", { timeout: 120_000 }, async () => {
    const dir = path.join(ROOT, "test-results", "sdk-samples");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    let count = 0;
    for (const op of operations) {
      const sdk = samplesOf(op).find((s) => s.label === "SDK");
      if (!sdk) continue;
      writeFileSync(path.join(dir, `${op.operation.operationId}.mts`), sdk.source);
      count++;
    }
    expect(count).toBe(Object.keys(operationMap).length);
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../tsconfig.json", include: ["*.mts"], exclude: [] }));
    const tsc = await run(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", path.join(dir, "tsconfig.json")], { cwd: ROOT }).then(
      () => "",
      (e: { stdout: string }) => e.stdout,
    );
    const failing = new Set([...tsc.matchAll(/sdk-samples\/(\w+)\.mts\(/g)].map((m) => m[1]));
    // Exactly the listed ones fail: a new failure fails this test, and so does a fixed one still listed.
    expect([...failing].sort(), tsc).toEqual(Object.keys(SDK_TYPE_GAPS).sort());
  });

  it("one runs against the sandbox and prints what the API answered", { timeout: 120_000 }, async () => {
    const op = operations.find((o) => o.operation.operationId === "getCard");
    const sdk = samplesOf(op as (typeof operations)[number]).find((s) => s.label === "SDK") as Sample;
    // The curl samples ran the sign-outs last: a fresh setup gives this run a live $SESSION again.
    exports = await setUp();
    const file = path.join(ROOT, "test-results", "sdk-sample-getCard.mts");
    writeFileSync(file, sdk.source);
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--conditions=@coinplane/source", file], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...environment() },
    });
    expect(stdout).toContain(environment().CARD_ID as string);
    expect(stdout).toContain("simulated: true");
  });
});
