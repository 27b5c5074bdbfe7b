// docs/other-generators.md, run: the two most used third-party generators, @hey-api/openapi-ts and orval (versions
// pinned in package.json), generate a client from the bundled contract with the configuration the guide shows, in a
// fresh project (a temporary folder: nothing generated is committed). Then:
// - one `tsc` program (the guide's tsconfig: strict, NodeNext) type-checks both clients and a short script per client,
//   and finds no error; the scripts contain no cast (`as`, `<T>x`, `!`) and no `any`;
//   the scripts store a field of each event's `data` in a `string`, which compiles only when the `switch` on `type`
//   narrows `data` (a generator that typed it as `{[key: string]: unknown}` fails here);
// - each script runs against a test server: wallet → payment (and its replay by Idempotency-Key) → list → bank transfer
//   → custody wallet → metric → 404 → the events of it all, narrowed by a `switch` on `type`; both print the same.
// The generators need Node ≥ 22.19 (their `engines` and orval's undici): on an older Node they run on the Node 22 that
// scripts/node-line.sh provides (never skipped). The test itself and the scripts run on the current Node.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect } from "../helpers/v2.ts";

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(import.meta.dirname, "other-generators");
const guide = readFileSync(path.join(root, "docs/other-generators.md"), "utf8");

/** Each generator: its CLI (a path in node_modules, run with `node`), its arguments, and its config and script files. */
const GENERATORS = {
  "hey-api": { cli: "node_modules/@hey-api/openapi-ts/bin/run.js", args: [], config: "openapi-ts.config.ts", script: "hey-api.ts" },
  orval: {
    cli: "node_modules/orval/dist/bin/orval.mjs",
    args: ["--config", "orval.config.ts"],
    config: "orval.config.ts",
    script: "orval.ts",
  },
} as const;
type Generator = keyof typeof GENERATORS;
const NAMES = Object.keys(GENERATORS) as Generator[];

let server: TestServer;
let project: string;
const generated = new Map<Generator, { stdout: string; stderr: string }>();
const ran = new Map<Generator, unknown>();
let diagnostics: string[] = [];

/** A Node the generators run on (>= 22.19): this one, else the Node 22 of scripts/node-line.sh. */
async function generatorNode(): Promise<string> {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  const { stdout } = await exec("bash", [path.join(root, "scripts/node-line.sh"), "22"], { cwd: root, timeout: 120_000 });
  return path.join(stdout.trim(), "node");
}

/** A fresh consumer project: the fixtures, the bundled contract as `openapi.json`, and this repository's node_modules
 * (the generators, TypeScript, tsx and @types/node; neither generated client needs a runtime package). */
function makeProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "coinplane-generators-"));
  cpSync(fixtures, dir, { recursive: true });
  cpSync(path.join(root, "openapi/generated/openapi.json"), path.join(dir, "openapi.json"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "generators", private: true, type: "module" }));
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** Every error of one `tsc -p tsconfig.json` over the project (both clients and both scripts), as `file: message`. */
function typeCheck(dir: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(dir, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error("tsconfig.json did not parse");
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.relative(dir, d.file.fileName) : "-"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}

/** The casts and `any`s in a script's text: what the acceptance forbids (a cast would hide a type the client got wrong). */
function castsIn(text: string): string[] {
  const source = ts.createSourceFile("script.ts", text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const isConstAssertion = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.getText(source) === "const";
    if (
      (ts.isAsExpression(node) && !isConstAssertion) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isNonNullExpression(node) ||
      node.kind === ts.SyntaxKind.AnyKeyword
    ) {
      found.push(node.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

async function generate(node: string, name: Generator) {
  const { cli, args } = GENERATORS[name];
  const result = await exec(node, [path.join(root, cli), ...args], { cwd: project, timeout: 120_000 });
  generated.set(name, result);
}

async function runScript(name: Generator, organizationId: string) {
  const { key } = await server.createKey({
    organizationId,
    scopes: ["wallets:write", "payments:write", "analytics:read", "webhooks:read"],
  });
  // Custody wallets need a reviewed custody provider connection (the sandbox simulator), which an operator makes.
  await connect(server, { organizationId, category: "custody" });
  const { stdout } = await exec(process.execPath, ["--import", "tsx", GENERATORS[name].script], {
    cwd: project,
    env: { ...process.env, COINPLANE_URL: server.url, COINPLANE_API_KEY: key },
    timeout: 60_000,
  });
  ran.set(name, JSON.parse(stdout));
}

beforeAll(async () => {
  project = makeProject();
  // The generators (child processes) run while the server starts in this one.
  const generating = generatorNode().then((node) => Promise.all(NAMES.map((name) => generate(node, name))));
  server = await startTestServer();
  await generating;
  diagnostics = typeCheck(project);
  await Promise.all(NAMES.map((name) => runScript(name, `org_gen_${name.replace("-", "_")}`)));
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("other generators (docs/other-generators.md)", () => {
  it.each(NAMES)("%s: the guide shows the config, the tsconfig and the script the test runs, verbatim", (name) => {
    for (const file of [GENERATORS[name].config, "tsconfig.json", GENERATORS[name].script]) {
      expect(guide, file).toContain(readFileSync(path.join(fixtures, file), "utf8").trim());
    }
  });

  it("the guide names the versions the test pins", () => {
    const pinned = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).devDependencies;
    for (const pkg of ["@hey-api/openapi-ts", "orval"]) {
      expect(pinned[pkg], `${pkg} is pinned to an exact version`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(guide).toContain(`${pkg} ${pinned[pkg]}`);
    }
  });

  it.each(NAMES)("%s: generates without a warning", (name) => {
    expect(generated.get(name)?.stderr ?? "").not.toMatch(/warn|error/i);
  });

  it("both clients and both scripts type-check under strict NodeNext with no error", () => {
    expect(diagnostics).toEqual([]);
  });

  it.each(NAMES)("%s: the script has no cast and no any", (name) => {
    expect(castsIn(readFileSync(path.join(project, GENERATORS[name].script), "utf8"))).toEqual([]);
  });

  it("the cast check finds each kind of cast, and lets `as const` pass", () => {
    const text = "const a = b as Wallet; const c = <Wallet>d; const e = f!; let g: any; const h = [1] as const;";
    expect(castsIn(text)).toEqual(["b as Wallet", "<Wallet>d", "f!", "any"]);
  });

  it.each(NAMES)("%s: the script runs against the server", (name) => {
    expect(ran.get(name)).toEqual({
      wallet: { status: 201, chain: "base" },
      payment: { status: 201, state: "confirmed", replayed: true, sameId: true },
      listed: true,
      bankTransfer: { status: 201, state: "pending", currency: "EUR" },
      custodyWallet: { status: 201, state: "pending_approval" },
      metric: { status: 200, metricId: "payments.volume", points: 7 },
      notFound: { status: 404, code: "not_found" },
      events: {
        "wallet.created": "base",
        "payment.created": "12.50",
        "bank_transfer.created": "EUR",
        "custody_wallet.created": "Generated client",
      },
    });
  });
});
